import type { Request } from 'express';
import type { Actor } from '../../services/context.js';

export const actorOf = (req: Request): Actor => ({ userId: req.user!.id, source: 'web' });

import type { Request } from 'express';
import type { Actor } from '@services/context.js';

/** Who a signed-in request acts as, for the services that record it (write routes sit behind the sign-in check). */
export const actorOf = (req: Request): Actor => ({ userId: req.user!.id, source: 'web' });

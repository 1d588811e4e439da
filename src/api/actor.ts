import type { Request } from 'express';
import { actorOfUser, type Actor } from '@services/context.js';

/** Who a signed-in request acts as, with their role, for the services that check and record it (write routes sit behind the sign-in check). */
export const actorOf = (req: Request): Actor => actorOfUser(req.user!);

import type { Request } from 'express';
import { actorOfToken, actorOfUser, type Actor } from '@services/context.js';

/**
 * Who a signed-in request acts as, with their role, for the services that check and record it (write routes sit
 * behind the sign-in check): the user, or the API token the request came with.
 */
export const actorOf = (req: Request): Actor => (req.apiToken ? actorOfToken(req.apiToken) : actorOfUser(req.user!));

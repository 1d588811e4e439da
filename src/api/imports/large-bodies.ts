import type { RequestHandler } from 'express';
import { AppError, tooManyRequests } from '@services/errors.js';

/** A body over this many bytes (or of unknown length, sent chunked) counts as large: up to 50 MB is streamed for it. */
const LARGE_BODY_BYTES = 1024 * 1024;
/** Large bodies one user may send at once (an import in one tab, another in a second). */
const PER_USER = 2;
/** Large bodies this process reads at once from everybody: each holds a connection and database work (never its bytes: ADR 0090). */
const IN_ALL = 4;
const RETRY_AFTER_SECONDS = 10;

const TOO_MANY_OF_YOURS = `You are already sending ${PER_USER} large imports or jobs; wait for one to finish, then try again.`;
const SERVER_BUSY = 'The server is busy receiving other large imports or jobs; try again in a few seconds.';

let inAll = 0;
const perUser = new Map<number | string, number>();

/**
 * Bounds the large bodies (import rows, uploaded files) read at once, per user (429) and in all (503), both with
 * Retry-After, so twenty 49 MB bodies at once cannot take the process's memory. One count for the whole process,
 * shared by every route that takes them; a slot is given back when the answer is sent or the client goes away.
 * Mounted after the role check and before the body is read.
 */
export const boundLargeBodies: RequestHandler = (req, res, next) => {
  const declared = req.get('content-length');
  if (declared !== undefined && Number(declared) <= LARGE_BODY_BYTES) return next();
  // A request with an API token counts as the token's.
  const userId = req.apiToken ? `token:${req.apiToken.id}` : req.user!.id;
  const mine = perUser.get(userId) ?? 0;
  if (mine >= PER_USER) throw tooManyRequests(TOO_MANY_OF_YOURS, RETRY_AFTER_SECONDS);
  if (inAll >= IN_ALL) throw new AppError(503, 'unavailable', SERVER_BUSY, undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  inAll++;
  perUser.set(userId, mine + 1);
  res.once('close', () => {
    inAll--;
    const left = (perUser.get(userId) ?? 1) - 1;
    if (left > 0) perUser.set(userId, left);
    else perUser.delete(userId);
  });
  next();
};

/** Large bodies being read now, in this process (tests wait on it). */
export const largeBodiesInProgress = () => inAll;

import * as z from 'zod';
import { LOG_KINDS, TIMELINE_KINDS } from '../activity.js';

/** The answers of the activity timeline and the activity log (docs/decisions/0106), for the API description. */
const activityPage = <K extends readonly [string, ...string[]]>(kinds: K) =>
  z.object({
    items: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(kinds),
        at: z.string(),
        actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
        source: z.enum(['screen', 'cli', 'import', 'sync', 'token']).nullable(),
        summary: z.string(),
        recordType: z.string().nullable(),
        recordId: z.number().int().nullable(),
      }),
    ),
    next: z.string().nullable(),
  });

export const TimelinePageSchema = activityPage(TIMELINE_KINDS);
export const ActivityLogPageSchema = activityPage(LOG_KINDS);

import { CronExpressionParser } from 'cron-parser';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import type { AppContext } from '../context.js';
import { takeScheduleTick } from '../jobs/queries.js';
import { mailConfigured, sendMail } from '../mail/mailer.js';
import { notify } from '../notifications/service.js';
import { orgTimeOfDay, orgToday } from './time.js';

export interface DigestResult {
  /** The organisation's day the digest is for. */
  date: string;
  /** Users who got it now (by email when mail is configured, and on their bell). */
  sent: number;
  /** Users with due tasks who had it already today. */
  already: number;
  /** Users whose email could not be sent (tried again on the next run). */
  failed: number;
}

interface DueTask {
  id: number;
  title: string;
  dueDate: string;
  dueTime: string;
  assigneeId: number;
}

function digestText(tasks: DueTask[], today: string, now: string): string {
  const line = (task: DueTask) => {
    const when = task.dueDate < today ? `overdue since ${task.dueDate}` : task.dueTime ? `today at ${task.dueTime}` : 'today';
    return `- ${task.title} (${when}${task.dueDate === today && task.dueTime && task.dueTime < now ? ', overdue' : ''})`;
  };
  return [
    `Your open tasks due today or overdue (${today}):`,
    '',
    ...tasks.map(line),
    '',
    'Open My tasks in Pacer CRM to complete them.',
  ].join('\n');
}

/**
 * The daily digest (issue 33): every active user with open tasks due today or before gets one message, once per day
 * of the organisation (task_digests' key refuses a second row), with a notification on their bell. A message the
 * mail server refused leaves no row, so the next run tries again. Safe to run from several processes at once.
 */
export async function sendTaskDigests(ctx: AppContext): Promise<DigestResult> {
  const today = orgToday(ctx);
  const now = orgTimeOfDay(ctx);
  const rows = (await ctx
    .db('tasks as t')
    .join('users as u', 'u.id', 't.assigneeId')
    .where('t.done', false)
    .where('u.isActive', true)
    .where('t.dueDate', '<=', today)
    .orderBy(['t.assigneeId', 't.dueDate', 't.dueTime', 't.id'])
    .select('t.id', 't.title', 't.dueDate', 't.dueTime', 't.assigneeId', 'u.email')) as Array<DueTask & { email: string }>;
  const byUser = new Map<number, { email: string; tasks: DueTask[] }>();
  for (const row of rows) {
    const userId = Number(row.assigneeId);
    const entry = byUser.get(userId) ?? { email: row.email, tasks: [] };
    entry.tasks.push({ ...row, dueDate: String(row.dueDate).slice(0, 10), dueTime: row.dueTime ?? '' });
    byUser.set(userId, entry);
  }
  const result: DigestResult = { date: today, sent: 0, already: 0, failed: 0 };
  for (const [userId, { email, tasks }] of byUser) {
    const taken = await withTransaction(ctx, async (trx) => {
      try {
        await trx('task_digests').insert({ userId, digestDate: today, tasks: tasks.length, sentAt: encodeTimestamp(ctx.clock.now()) });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
        throw error;
      }
      const count = `${tasks.length} task${tasks.length === 1 ? '' : 's'}`;
      await notify(trx, ctx, [{ userId, kind: 'due', actorId: null, text: `You have ${count} due today or overdue` }]);
      return true;
    });
    if (!taken) {
      result.already++;
      continue;
    }
    if (mailConfigured(ctx)) {
      try {
        await sendMail(ctx, {
          to: email,
          subject: `Pacer CRM: ${tasks.length} task${tasks.length === 1 ? '' : 's'} due`,
          text: digestText(tasks, today, now),
        });
      } catch (error) {
        ctx.log.warn({ err: error, userId }, 'task digest could not be sent; the next run tries again');
        await ctx.db('task_digests').where({ userId, digestDate: today }).delete();
        result.failed++;
        continue;
      }
    }
    result.sent++;
  }
  ctx.log.info({ event: 'task_digest', ...result }, 'task digest');
  return result;
}

export interface DigestSchedule {
  close(): Promise<void>;
}

/**
 * Runs the digest each day at TASK_DIGEST_AT in ORG_TIME_ZONE, in every process that runs the jobs' schedule (the
 * server in embedded mode, each worker with Redis): the first process to record the tick in schedule_ticks sends it
 * (src/services/jobs/schedule.ts does the same for SYNC_SCHEDULE), and the per-day key makes a repeat harmless.
 */
export function startDigestSchedule(ctx: AppContext): DigestSchedule {
  const [hour, minute] = ctx.config.taskDigestAt.split(':').map(Number);
  const pattern = `${minute} ${hour} * * *`;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const next = (after: Date) => {
    if (closed) return;
    const now = ctx.clock.now();
    const tick = CronExpressionParser.parse(pattern, { currentDate: now > after ? now : after, tz: ctx.config.orgTimeZone })
      .next()
      .toDate();
    timer = setTimeout(() => void runTick(tick).finally(() => next(tick)), Math.max(0, tick.getTime() - now.getTime()));
    timer.unref();
  };
  const runTick = async (tick: Date) => {
    try {
      if (await takeScheduleTick(ctx.db, 'task-digest', tick)) await sendTaskDigests(ctx);
    } catch (error) {
      ctx.log.error({ err: error }, 'task digest could not run');
    }
  };
  next(ctx.clock.now());
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { withTransaction } from '@db/transaction.js';
import type { AppContext } from '../context.js';
import { mailConfigured, sendMail } from '../mail/mailer.js';
import { notify } from '../notifications/service.js';

/**
 * Failure alerts (docs/decisions/0105): something that runs unattended (a job type, a scheduled sync, a backup)
 * fails, and the admins are told once per failure streak, then once when it next succeeds. The streak of each
 * thing is a row of alert_streaks, keyed by name; each step is one conditional statement, so two processes that
 * see the same outcome at once send one alert between them.
 */

const PRODUCT_NAME = 'Pacer CRM';

/** What went wrong (or right again), as every admin is told it. */
export interface AdminAlert {
  /** The thing's key, e.g. 'sync:events' or 'backup'. */
  key: string;
  /** Its name in a sentence: "The events sync". */
  label: string;
  state: 'failing' | 'recovered';
  /** The failure's message (failing), or the last one of the streak (recovered). */
  error: string | null;
  /** When the streak began. */
  since: string;
  /** Failures in the streak so far (recovered: in all). */
  failures: number;
  /** Where to look, when the site's address is known. */
  url: string | null;
}

interface StreakRow {
  alertKey: string;
  label: string;
  failingSince: string | null;
  failures: number;
  lastError: string | null;
  alertedAt: string | null;
}

/**
 * The one seam every alert goes through (other sources, e.g. a backup run outside the jobs, call it too): a
 * notification in each active admin's bell, and an email to each when mail is set up (logged either way). Never
 * throws: a mail failure is logged, not the job's.
 * @public
 */
export async function notifyAdmins(ctx: AppContext, alert: AdminAlert): Promise<void> {
  ctx.log.warn(
    { event: 'admin_alert', key: alert.key, state: alert.state, failures: alert.failures },
    `alert: ${alert.label} ${alert.state}`,
  );
  const admins = (await ctx.db('users').where({ role: 'admin', isActive: 1 }).select('id', 'email', 'firstName')) as Array<{
    id: number;
    email: string;
    firstName: string;
  }>;
  const failing = alert.state === 'failing';
  // The bell's notification, whether or not mail is set up.
  await withTransaction(ctx, (trx) =>
    notify(
      trx,
      ctx,
      admins.map((admin) => ({
        userId: admin.id,
        kind: 'alert' as const,
        actorId: null,
        text: failing ? `Failing: ${alert.label}` : `Recovered: ${alert.label}`,
      })),
    ),
  ).catch((error: unknown) => ctx.log.warn({ err: error, key: alert.key }, 'could not record an alert notification'));
  if (!mailConfigured(ctx)) return;
  const subject = failing ? `[${PRODUCT_NAME}] Failing: ${alert.label}` : `[${PRODUCT_NAME}] Recovered: ${alert.label}`;
  const since = alert.since.replace('T', ' ').slice(0, 16);
  const lines = failing
    ? [
        `${alert.label} failed at ${since} UTC.`,
        ...(alert.error ? ['', `The error: ${alert.error}`] : []),
        '',
        'You are told once: further failures of it are not emailed until it succeeds again, when you get one more email.',
      ]
    : [
        `${alert.label} succeeded again, after ${alert.failures} ${alert.failures === 1 ? 'failure' : 'failures'} since ${since} UTC.`,
        ...(alert.error ? ['', `The last error was: ${alert.error}`] : []),
      ];
  if (alert.url) lines.push('', `Details: ${alert.url}`);
  for (const admin of admins) {
    await sendMail(ctx, { to: admin.email, subject, text: [`Hello ${admin.firstName},`, '', ...lines].join('\n') }).catch(
      (error: unknown) => ctx.log.warn({ err: error, key: alert.key }, 'could not email an alert'),
    );
  }
}

async function readStreak(ctx: AppContext, key: string): Promise<StreakRow | undefined> {
  const row = (await ctx.db('alert_streaks').where({ alertKey: key }).first()) as Record<string, unknown> | undefined;
  return row ? decodeRow<StreakRow>(columnKinds.alert_streaks, row) : undefined;
}

/**
 * Records one outcome of `key` and answers the alert it calls for, if any: the first failure of a streak gives a
 * 'failing' alert, the first success after an alerted streak a 'recovered' one; anything else none.
 */
export async function recordOutcome(
  ctx: AppContext,
  subject: { key: string; label: string },
  outcome: { succeeded: true } | { succeeded: false; error: string },
): Promise<AdminAlert | undefined> {
  const now = encodeTimestamp(ctx.clock.now());
  const url = ctx.config.appUrl ? `${ctx.config.appUrl}/jobs` : null;
  const key = subject.key.slice(0, 150);
  const label = subject.label.slice(0, 255);
  if (outcome.succeeded) {
    const streak = await readStreak(ctx, key);
    if (!streak?.failingSince) return undefined;
    // Only the process that ends this very streak answers its recovery.
    const ended = await ctx
      .db('alert_streaks')
      .where({ alertKey: key, failingSince: encodeTimestamp(new Date(streak.failingSince)) })
      .update({ failingSince: null, failures: 0, alertedAt: null, updatedAt: now });
    if (ended !== 1 || !streak.alertedAt) return undefined;
    return { key, label, state: 'recovered', error: streak.lastError, since: streak.failingSince, failures: streak.failures, url };
  }
  const error = outcome.error.slice(0, 1000);
  const claimed = await withTransaction(ctx, async (trx) => {
    await trx('alert_streaks').insert({ alertKey: key, label, failures: 0, updatedAt: now }).onConflict('alertKey').ignore();
    await trx('alert_streaks')
      .where({ alertKey: key })
      .update({
        label,
        failingSince: trx.raw('COALESCE(??, ?)', ['failingSince', now]),
        failures: trx.raw('?? + 1', ['failures']),
        lastError: error,
        updatedAt: now,
      });
    // The streak's one alert: whoever sets alertedAt first sends it.
    return trx('alert_streaks').where({ alertKey: key }).whereNotNull('failingSince').whereNull('alertedAt').update({ alertedAt: now });
  });
  if (claimed !== 1) return undefined;
  const streak = await readStreak(ctx, key);
  return {
    key,
    label,
    state: 'failing',
    error,
    since: streak?.failingSince ?? ctx.clock.now().toISOString(),
    failures: streak?.failures ?? 1,
    url,
  };
}

/** What a job is, for its alerts: its type, and the kind for the jobs that have one (each sync kind on its own). */
function jobAlertSubject(job: { type: string; params: Record<string, unknown> }): { key: string; label: string } {
  const kind = typeof job.params.kind === 'string' ? job.params.kind : null;
  return {
    key: kind ? `job:${job.type}:${kind}` : `job:${job.type}`,
    label: kind ? `The ${job.type} job (${kind})` : `The ${job.type} job`,
  };
}

/**
 * After a job has finished: its outcome moves its streak, and an alert it calls for is sent in the background.
 * A failure counts when the job ran unattended (the schedule) or failed on our side (5xx, a bug); a person's own
 * bad input (a 4xx of a job they started) is told to them on the jobs page, not to every admin.
 */
export async function noteJobOutcome(
  ctx: AppContext,
  job: { type: string; trigger: string; params: Record<string, unknown> },
  outcome: { succeeded: true } | { succeeded: false; error: string; status: number },
): Promise<void> {
  if (!outcome.succeeded && job.trigger !== 'schedule' && outcome.status < 500) return;
  try {
    const alert = await recordOutcome(ctx, jobAlertSubject(job), outcome);
    if (alert) void notifyAdmins(ctx, alert).catch((error: unknown) => ctx.log.warn({ err: error }, 'could not send an alert'));
  } catch (error) {
    ctx.log.warn({ err: error, jobType: job.type }, 'could not record the job outcome for alerts');
  }
}

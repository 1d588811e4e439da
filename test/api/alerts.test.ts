import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteJobOutcome, recordOutcome } from '@services/alerts/service.js';
import { cliActor } from '@services/context.js';
import { executeJob } from '@services/jobs/execute.js';
import { createJob } from '@services/jobs/service.js';
import { createUser } from '@services/users/service.js';
import { FakeWordPress } from '../fakes/wordpress.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { startMailCatcher, type MailCatcher } from '../helpers/smtp.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * Failure alerts (issue 35 point 5) through the real path: scheduled sync jobs run by executeJob against a fake
 * WordPress that fails when told to, and the emails caught by a local SMTP server.
 */
describe('failure alerts: one email per failure streak, one when it recovers', () => {
  let mail: MailCatcher;
  let wp: FakeWordPress;
  let t: TestApp;

  beforeAll(async () => {
    mail = await startMailCatcher();
    wp = await new FakeWordPress({ posts: { events: [{ id: 1, title: 'Harbour Run' }] } }).start();
    t = await createTestApp({
      env: {
        SMTP_URL: mail.url,
        MAIL_FROM: 'Pacer CRM <crm@example.org>',
        APP_URL: 'https://crm.example.org',
        ...wp.env,
        HTTP_TIMEOUT_MS: '3000',
        // A failure is final at once (no retry), so each run below is one outcome.
        JOB_ATTEMPTS: '1',
      },
    });
    const person = (email: string, role: 'admin' | 'staff') =>
      createUser(t.ctx, { email, password: TEST_PASSWORD, firstName: 'Alex', lastName: 'Admin', role });
    await person('admin.one@example.org', 'admin');
    await person('admin.two@example.org', 'admin');
    await person('staff.member@example.org', 'staff');
    await person('former.admin@example.org', 'admin');
    await t.database.db('users').where({ email: 'former.admin@example.org' }).update({ isActive: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await wp?.close();
    await mail?.close();
  });

  /** One scheduled sync of events, run to its end here. */
  async function scheduledSync(fail: boolean): Promise<string> {
    if (fail) wp.failNext(401, 1);
    const id = await createJob(t.ctx, cliActor(), 'sync', { kind: 'events' }, { trigger: 'schedule' });
    const outcome = await executeJob(t.ctx, id, { owner: 'test' });
    expect(outcome.kind).toBe('finished');
    return (outcome as { state: string }).state;
  }
  const streak = () => t.database.db('alert_streaks').where({ alertKey: 'job:sync:events' }).first();
  const subjects = () => mail.received.map((mail) => mail.subject);

  it('two failures in a row: one email to each active admin; a success: one recovery email; a failure: a new one', async () => {
    expect(await scheduledSync(true)).toBe('failed');
    await waitUntil(() => mail.received.length >= 2, 'the failure alert to both admins');
    expect(await scheduledSync(true)).toBe('failed');
    // The second failure is in the streak (counted), and calls for no email.
    expect(Number((await streak()).failures)).toBe(2);

    expect(await scheduledSync(false)).toBe('succeeded');
    await waitUntil(() => mail.received.length >= 4, 'the recovery emails');
    expect(subjects()).toEqual([
      '[Pacer CRM] Failing: The sync job (events)',
      '[Pacer CRM] Failing: The sync job (events)',
      '[Pacer CRM] Recovered: The sync job (events)',
      '[Pacer CRM] Recovered: The sync job (events)',
    ]);
    expect(
      mail.received
        .slice(0, 2)
        .flatMap((mail) => mail.to)
        .sort(),
    ).toEqual(['admin.one@example.org', 'admin.two@example.org']);
    expect(mail.received[0]!.body).toContain('The error:');
    expect(mail.received[0]!.body).toContain('Details: https://crm.example.org/jobs');
    expect(mail.received[2]!.body).toContain('succeeded again, after 2 failures');
    expect((await streak()).failingSince).toBeNull();

    // Another success: nothing to tell.
    expect(await scheduledSync(false)).toBe('succeeded');
    expect(await scheduledSync(true)).toBe('failed');
    await waitUntil(() => mail.received.length >= 6, 'the alert of the new streak');
    expect(subjects().slice(4)).toEqual(['[Pacer CRM] Failing: The sync job (events)', '[Pacer CRM] Failing: The sync job (events)']);
    expect(Number((await streak()).failures)).toBe(1);

    // The same three alerts wait in each active admin's bell, leading to the Jobs page.
    const [one] = await t.database.db('users').where({ email: 'admin.one@example.org' }).pluck('id');
    const bell = (await t.database.db('notifications').where({ userId: one, kind: 'alert' }).orderBy('id').pluck('text')) as string[];
    expect(bell).toEqual(['Failing: The sync job (events)', 'Recovered: The sync job (events)', 'Failing: The sync job (events)']);
    const [former] = await t.database.db('users').where({ email: 'former.admin@example.org' }).pluck('id');
    expect(await t.database.db('notifications').where({ userId: former })).toEqual([]);
  });

  it('keeps streaks apart by key, and answers one alert when two processes record the same failure at once', async () => {
    const subject = { key: 'job:backup', label: 'The backup job' };
    const [a, b] = await Promise.all([
      recordOutcome(t.ctx, subject, { succeeded: false, error: 'disk full' }),
      recordOutcome(t.ctx, subject, { succeeded: false, error: 'disk full' }),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect([a, b].find(Boolean)).toMatchObject({ state: 'failing', label: 'The backup job', error: 'disk full' });
    // A success of another thing does not end this streak.
    expect(await recordOutcome(t.ctx, { key: 'job:other', label: 'Other' }, { succeeded: true })).toBeUndefined();
    const [c, d] = await Promise.all([
      recordOutcome(t.ctx, subject, { succeeded: true }),
      recordOutcome(t.ctx, subject, { succeeded: true }),
    ]);
    expect([c, d].filter(Boolean)).toEqual([expect.objectContaining({ state: 'recovered', failures: 2, error: 'disk full' })]);
  });

  it('leaves a person’s own bad input to the jobs page, and alerts on a job that failed on our side', async () => {
    const before = mail.received.length;
    const job = { type: 'import', trigger: 'web', params: { kind: 'brands' } };
    await noteJobOutcome(t.ctx, job, { succeeded: false, error: 'Column "Brand" is missing', status: 400 });
    expect(await t.database.db('alert_streaks').where({ alertKey: 'job:import:brands' }).first()).toBeUndefined();
    await noteJobOutcome(t.ctx, job, { succeeded: false, error: 'The job failed: out of memory', status: 500 });
    await waitUntil(() => mail.received.length >= before + 2, 'the alert of a job that failed on our side');
    expect(mail.received.slice(before).map((mail) => mail.subject)).toEqual([
      '[Pacer CRM] Failing: The import job (brands)',
      '[Pacer CRM] Failing: The import job (brands)',
    ]);
  });
});

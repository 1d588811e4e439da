import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@cli/program.js';
import { cliActor } from '@services/context.js';
import { listNotifications } from '@services/notifications/service.js';
import { createTask } from '@services/tasks/service.js';
import { createUser } from '@services/users/service.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { startMailCatcher, type MailCatcher } from '../helpers/smtp.js';
import { captureIO } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer tasks digest', () => {
  let t: TestDatabase;
  let mail: MailCatcher;

  beforeAll(async () => {
    t = await createTestDatabase();
    mail = await startMailCatcher();
  });
  afterAll(async () => {
    await t.destroy();
    await mail?.close();
  });

  it('emails each user with open tasks due today or overdue once a day, however often it runs', async () => {
    // The CLI runs on the real clock: the tasks are due by the organisation's today (UTC here).
    const ctx = { db: t.db, log: pino({ level: 'silent' }), config: testConfig(), clock: new FakeClock(new Date()) };
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const due = await createUser(ctx, {
      email: 'due@example.org',
      password: 'long enough password',
      firstName: 'Dee',
      lastName: 'Due',
      role: 'staff',
    });
    const later = await createUser(ctx, {
      email: 'later@example.org',
      password: 'long enough password',
      firstName: 'Lee',
      lastName: 'Later',
      role: 'staff',
    });
    await createTask(ctx, cliActor(), { title: 'Overdue call', dueDate: yesterday, assigneeId: due.id });
    await createTask(ctx, cliActor(), { title: 'Send the invoice', dueDate: today, dueTime: '10:00', assigneeId: due.id });
    const finished = await createTask(ctx, cliActor(), { title: 'Already done', dueDate: today, assigneeId: due.id });
    await t.db('tasks').where({ id: finished.id }).update({ done: true });
    await createTask(ctx, cliActor(), { title: 'Not yet', dueDate: nextWeek, assigneeId: later.id });

    const env = { DATABASE_URL: t.url, SMTP_URL: mail.url, MAIL_FROM: 'Pacer CRM <crm@example.org>' };
    const first = captureIO(env);
    expect(await runCli(['tasks', 'digest'], first)).toBe(0);
    expect(first.out()).toBe(`Task digest for ${today}: sent to 1 user(s), 0 had it already today.\n`);
    expect(mail.received).toHaveLength(1);
    expect(mail.received[0]!.to).toEqual(['due@example.org']);
    expect(mail.received[0]!.body).toContain('Overdue call');
    expect(mail.received[0]!.body).toContain('Send the invoice');
    expect(mail.received[0]!.body).not.toContain('Already done');

    const second = captureIO(env);
    expect(await runCli(['tasks', 'digest', '--json'], second)).toBe(0);
    expect(JSON.parse(second.out())).toEqual({ date: today, sent: 0, already: 1, failed: 0 });
    expect(mail.received).toHaveLength(1);

    // The bell has it too.
    const bell = await listNotifications(ctx, { userId: due.id, source: 'web', role: 'staff' });
    expect(bell.items.filter((n) => n.kind === 'due').map((n) => n.text)).toEqual(['You have 2 tasks due today or overdue']);
  });

  it('a refused message is tried again on the next run', async () => {
    const ctx = { db: t.db, log: pino({ level: 'silent' }), config: testConfig(), clock: new FakeClock(new Date()) };
    const user = await createUser(ctx, {
      email: 'retry@example.org',
      password: 'long enough password',
      firstName: 'Re',
      lastName: 'Try',
      role: 'staff',
    });
    await createTask(ctx, cliActor(), { title: 'Retry me', dueDate: new Date().toISOString().slice(0, 10), assigneeId: user.id });
    // Nothing listens on port 1: the send fails, and no digest is recorded.
    const failing = captureIO({ DATABASE_URL: t.url, SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: 'crm@example.org' });
    expect(await runCli(['tasks', 'digest'], failing)).toBe(3);
    const before = mail.received.length;
    expect(await runCli(['tasks', 'digest'], captureIO({ DATABASE_URL: t.url, SMTP_URL: mail.url, MAIL_FROM: 'crm@example.org' }))).toBe(0);
    expect(mail.received.slice(before).map((m) => m.to)).toEqual([['retry@example.org']]);
  });
});

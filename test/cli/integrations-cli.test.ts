import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@cli/program.js';
import { encodeList, encodeTimestamp } from '@db/codecs.js';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { FakeWordPress, type FakePost } from '../fakes/wordpress.js';
import { captureIO, runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { waitUntil } from '../helpers/wait.js';

const clubs = (n: number): FakePost[] =>
  Array.from({ length: n }, (_, i) => ({
    id: 500 + i,
    title: `Club &#8220;${i}&#8221;`,
    // Club 0's type is not ours (a warning: saved as other); club 1's state is not a state (an error: left empty).
    meta: { club_type: i === 0 ? 'Ultra' : 'Trail', location_state: i === 1 ? 'Atlantis' : 'WA' },
  }));

describe('pacer sync, newsletter, wordpress and mailchimp commands', () => {
  let database: TestDatabase;
  let wp: FakeWordPress;
  let mc: FakeMailchimp;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    wp = await new FakeWordPress({
      posts: {
        events: [{ id: 1, title: 'Fun Run', meta: { location_state: 'vic' } }],
        'run-clubs': clubs(3),
        professionals: [{ id: 9, title: 'Coach Co', meta: { profession_type: 'Coach' } }],
      },
    }).start();
    mc = await new FakeMailchimp().start();
    mc.addAudience('Runners Weekly', 'runners1');
    mc.addMember('runners1', { email_address: 'old@example.org', status: 'unsubscribed' });
    env = {
      DATABASE_URL: database.url,
      ...wp.env,
      ...mc.env,
      HTTP_TIMEOUT_MS: '3000',
    };
    const now = encodeTimestamp(new Date());
    const contact = (firstName: string, email: string | null, entityType: string, tags: string[]) => ({
      firstName,
      lastName: 'Tester',
      email,
      entityType,
      entityId: 1,
      mailchimpTags: encodeList(tags),
      isPrimary: 0,
      createdAt: now,
      updatedAt: now,
    });
    await database
      .db('contacts')
      .insert([
        contact('Ann', 'ann@example.org', 'event', ['Race Director']),
        contact('Ann again', 'ANN@example.org', 'brand', ['Sponsor']),
        contact('Ben', 'ben@example.org', 'brand', ['Sponsor']),
        contact('Old', 'old@example.org', 'event', []),
        contact('Bad', 'not-an-email', 'event', []),
        contact('None', null, 'event', []),
        contact('Blank', '', 'media', []),
      ]);
  });
  afterAll(async () => {
    await wp.close();
    await mc.close();
    await database.destroy();
  });

  const run = (argv: string[], extraEnv: Record<string, string | undefined> = {}) => runPacer({ ...env, ...extraEnv }, argv);

  it('syncs one kind and exits 3 when items had problems, 0 when clean; warnings are listed apart', async () => {
    const clubsRun = await run(['sync', 'runclubs']);
    expect(clubsRun.code).toBe(3);
    expect(clubsRun.out).toContain('run clubs: 3 run clubs read (full), 3 created, 0 updated, 0 unchanged, 1 problem, 1 warning');
    expect(clubsRun.out).toContain(
      "! Run club 'Club “1”' (WordPress id 501): state 'Atlantis' is not one of NSW, VIC, QLD, WA, SA, TAS, ACT, NT, NZ; left empty",
    );
    expect(clubsRun.out).toContain(
      "~ Run club 'Club “0”' (WordPress id 500): club type 'Ultra' is not one of trail, road, track, mixed, social, other; saved as other (Ultra)",
    );
    const eventsRun = await run(['sync', 'events', '--json']);
    expect(eventsRun.code).toBe(0);
    expect(JSON.parse(eventsRun.out)).toMatchObject({ kind: 'events', exitCode: 0, success: true, created: 1, errors: [] });
    const [run1] = await database.db('sync_runs').where({ kind: 'events' });
    expect(run1).toMatchObject({ trigger: 'cli', startedBy: null });
  });

  it('syncs everything with `all`, and a dry run writes nothing', async () => {
    const dry = await run(['sync', 'all', '--dry-run', '--json']);
    const body = JSON.parse(dry.out) as Array<{ kind: string; dryRun: boolean; created: number }>;
    expect(body.map((r) => [r.kind, r.dryRun, r.created])).toEqual([
      ['events', true, 0],
      ['professionals', true, 1],
      ['runclubs', true, 0],
    ]);
    expect(await database.db('professionals').count({ n: '*' }).first()).toEqual({ n: 0 });
    const all = await run(['sync', 'all', '--full']);
    expect(all.code).toBe(3);
    expect(all.out).toMatch(/events: .*full/);
    expect(await database.db('professionals').count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('lets only one of two overlapping runs of the same sync proceed; the other exits 4 at once', async () => {
    // WordPress keeps the first run waiting until the test lets it go, so the second cannot wait for it to finish:
    // were it to wait for the lock rather than exit at once, it would not exit before the deadline.
    const release = wp.holdAnswers();
    try {
      const before = wp.requests.length;
      // A generous client timeout, so the held answer cannot time out the first run however slow the machine.
      const first = run(['sync', 'events', '--full'], { HTTP_TIMEOUT_MS: '60000' });
      // Wait until the first run holds the lock and is talking to WordPress.
      await waitUntil(() => wp.requests.length > before, 'the first run to ask WordPress');
      const exited: Array<Awaited<ReturnType<typeof run>>> = [];
      void run(['sync', 'events']).then((result) => exited.push(result));
      await waitUntil(() => exited.length === 1, 'the second run to exit while the first still holds the lock');
      const [second] = exited as [Awaited<ReturnType<typeof run>>];
      expect(second.code).toBe(4);
      expect(second.err).toContain('A sync of events is already running; try again when it has finished');
      release();
      expect((await first).code).toBe(0);
      // Once the first has finished, the next run goes ahead.
      expect((await run(['sync', 'events'])).code).toBe(0);
    } finally {
      release();
    }
  });

  it('exits 2 with a clear message when the settings are missing, and 2 for an unknown kind', async () => {
    const missing = await run(['sync', 'events'], { WORDPRESS_URL: undefined });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('The content website is not configured: set WORDPRESS_URL');
    expect((await run(['sync', 'races'])).code).toBe(2);
  });

  it('exits 1 when WordPress cannot be reached, after the job tried it again with backoff', async () => {
    const closed = await new FakeWordPress().start();
    await closed.close();
    const down = await run(['sync', 'events'], { WORDPRESS_URL: closed.url, JOB_ATTEMPTS: '3', JOB_BACKOFF_MS: '20' });
    expect(down.code).toBe(1);
    expect(down.err).toBe(`events: sync failed: Could not reach WordPress at ${closed.url}: connection refused\n`);
    // A network failure may pass, so the job ran three times before it failed; its row says why.
    const job = (await database.db('jobs').where({ type: 'sync' }).orderBy('id', 'desc').first()) as {
      state: string;
      attempts: number;
      error: string | object;
    };
    expect(job.state).toBe('failed');
    expect(job.attempts).toBe(3);
    expect(typeof job.error === 'string' ? JSON.parse(job.error) : job.error).toMatchObject({
      status: 502,
      message: `Could not reach WordPress at ${closed.url}: connection refused`,
    });
  });

  it('tests the WordPress connection and fails for a wrong application password', async () => {
    const ok = await run(['wordpress', 'test']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('Connected to Pacer & Friends as Edith Editor');
    const wrong = await run(['wordpress', 'test'], { WORDPRESS_APP_PASSWORD: 'nope nope' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('Connection failed: WordPress rejected the username or application password');
  });

  it('tests Mailchimp and lists audiences', async () => {
    const ok = await run(['mailchimp', 'test']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('Connected to Mailchimp account Pacer Running Co');
    const audiences = await run(['mailchimp', 'audiences', '--json']);
    expect(JSON.parse(audiences.out)).toEqual([{ id: 'runners1', name: 'Runners Weekly', stats: { member_count: 0 } }]);
    const wrong = await run(['mailchimp', 'test'], { MAILCHIMP_API_KEY: 'bad-us1' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('API Key Invalid');
  });

  it('pushes contacts with an email as upserts with their tags, and summarises added / updated / failed', async () => {
    const dry = await run(['newsletter', 'push', '--audience', 'runners1', '--dry-run']);
    expect(dry.out).toBe('Dry run: 4 contacts would be pushed to audience runners1\n');
    expect(mc.member('runners1', 'ann@example.org')).toBeUndefined();

    const pushed = await run(['newsletter', 'push', '--audience', 'runners1']);
    expect(pushed.code).toBe(3);
    expect(pushed.out).toContain(
      'Pushed 4 contacts to audience runners1: 2 added, 0 updated, 1 unsubscribed (kept unsubscribed), 1 failed',
    );
    expect(pushed.out).toContain('! not-an-email: Mailchimp: Invalid Resource: email_address: This value should be a valid email.');
    expect(mc.member('runners1', 'ann@example.org')).toMatchObject({
      status: 'subscribed',
      tags: ['Race Director', 'Sponsor'],
      merge_fields: { FNAME: 'Ann', LNAME: 'Tester' },
    });
    expect(mc.member('runners1', 'old@example.org')?.status).toBe('unsubscribed');

    const again = await run(['newsletter', 'push', '--audience', 'runners1', '--owner-type', 'brand', '--tag', 'sponsor', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ total: 2, added: 0, updated: 2, failed: 0 });

    // On a terminal, a progress bar goes to stderr (never into stdout, which stays clean for scripts).
    const io = captureIO(env);
    io.stderr.isTTY = true;
    expect(await runCli(['newsletter', 'push', '--audience', 'runners1', '--owner-type', 'brand'], io)).toBe(0);
    expect(io.err()).toContain(`contacts [${'#'.repeat(30)}] 2/2`);
    expect(io.out()).toBe('Pushed 2 contacts to audience runners1: 0 added, 2 updated, 0 unsubscribed (kept unsubscribed), 0 failed\n');
  });

  it('rejects a bad owner type and reports an unknown audience', async () => {
    expect((await run(['newsletter', 'push', '--audience', 'runners1', '--owner-type', 'influencer'])).code).toBe(2);
    const unknown = await run(['newsletter', 'push', '--audience', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Mailchimp: Resource Not Found');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer webhooks', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  const run = (env: Record<string, string>, ...argv: string[]) => runPacer({ DATABASE_URL: t.url, ...env }, argv);
  const allowed = { WEBHOOKS_ALLOW_PRIVATE: 'true' };

  it('creates an endpoint and prints {id, url, events, secret} once with --json', async () => {
    const created = await run(
      allowed,
      'webhooks',
      'create',
      '--url',
      'http://127.0.0.1:9/hook',
      '--events',
      'record.created,record.updated',
      '--json',
    );
    expect(created.code).toBe(0);
    const body = JSON.parse(created.out) as { id: number; url: string; events: string[]; secret: string };
    expect(Object.keys(body).sort()).toEqual(['events', 'id', 'secret', 'url']);
    expect(body).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['record.created', 'record.updated'] });
    expect(body.secret).toMatch(/^whsec_/);
    expect(Buffer.from(body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const listed = await run({}, 'webhooks', 'list', '--json');
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.out) as Array<Record<string, unknown>>;
    expect(items).toEqual([expect.objectContaining({ id: body.id, enabled: true, events: ['record.created', 'record.updated'] })]);
    expect(listed.out).not.toContain(body.secret);

    const text = await run({}, 'webhooks', 'list');
    expect(text.out).toContain(`${body.id}\thttp://127.0.0.1:9/hook\trecord.created,record.updated\tenabled`);

    expect((await run({}, 'webhooks', 'delete', String(body.id))).out).toBe(`Deleted webhook ${body.id}\n`);
    expect((await run({}, 'webhooks', 'list')).out).toBe('No webhooks.\n');
  });

  it('refuses bad input with a readable error and a usage exit code', async () => {
    const privateUrl = await run({}, 'webhooks', 'create', '--url', 'http://127.0.0.1/hook', '--events', '*');
    expect(privateUrl.code).toBe(2);
    expect(privateUrl.err).toMatch(/private or loopback address \(WEBHOOKS_ALLOW_PRIVATE is not set\)/);
    const badEvent = await run(allowed, 'webhooks', 'create', '--url', 'http://127.0.0.1/hook', '--events', 'record.nope', '--json');
    expect(badEvent.code).toBe(2);
    expect((JSON.parse(badEvent.out) as { error: { message: string } }).error.message).toMatch(/Events must be among/);
    const missing = await run({}, 'webhooks', 'delete', '999');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('Webhook not found');
    expect((await run({}, 'webhooks', 'delete', 'abc')).code).toBe(2);
  });
});

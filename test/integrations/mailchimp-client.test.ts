import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay, defaultRetryPolicy } from '@integrations/http.js';
import { MailchimpClient, MailchimpError, mailchimpBaseUrl, readableProblem, subscriberHash } from '@integrations/mailchimp/client.js';
import { upsertAudienceMember } from '@services/integrations/service.js';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { waitUntil } from '../helpers/wait.js';

describe('Mailchimp client against the fake API', () => {
  let mc: FakeMailchimp;
  let audienceId: string;
  const clientFor = (overrides: Partial<ConstructorParameters<typeof MailchimpClient>[0]> = {}) =>
    new MailchimpClient({ apiKey: mc.apiKey, baseUrl: mc.baseUrl, timeoutMs: 2000, sleep: async () => undefined, ...overrides });

  beforeAll(async () => {
    mc = await new FakeMailchimp().start();
    audienceId = mc.addAudience('Runners Weekly', 'runners1').id;
    for (let i = 0; i < 12; i++) mc.addAudience(`Audience ${i}`, `aud${i}`);
    mc.addMember(audienceId, { email_address: 'gone@example.org', status: 'unsubscribed' });
    mc.addMember(audienceId, { email_address: 'kept@example.org', status: 'subscribed' });
  });
  afterAll(() => mc.close());
  afterEach(() => {
    mc.requests = [];
    mc.failures = [];
    mc.delayMs = 0;
    mc.peakInFlight = 0;
  });

  it('derives the data-centre URL from the key and hashes subscribers as MD5 of the lower-cased email', () => {
    expect(mailchimpBaseUrl('0123abcd-us10')).toBe('https://us10.api.mailchimp.com/3.0');
    expect(() => mailchimpBaseUrl('no-suffix-here-')).toThrow(/data-centre suffix/);
    expect(subscriberHash(' Someone@Example.ORG ')).toBe('a70eaed09677478b42b11fc7a04f4c87');
  });

  it('reads the account for the connection test', async () => {
    expect(await clientFor().account()).toEqual({
      account_name: 'Pacer Running Co',
      email: 'owner@pacer.example',
      industry: 'Sports',
      total_subscribers: 1,
    });
  });

  it('lists every audience across several pages with member counts', async () => {
    const audiences = await clientFor({ pageSize: 5 }).audiences();
    expect(audiences).toHaveLength(13);
    expect(audiences[0]).toEqual({ id: 'runners1', name: 'Runners Weekly', stats: { member_count: 1 } });
    expect(mc.requests.filter((r) => r.startsWith('GET /3.0/lists?'))).toHaveLength(3);
  });

  it('turns a wrong API key into a readable problem message', async () => {
    const error = await clientFor({ apiKey: 'wrong-us10' })
      .account()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailchimpError);
    expect((error as MailchimpError).status).toBe(401);
    expect((error as MailchimpError).message).toBe(
      "API Key Invalid: Your API key may be invalid, or you've attempted to access the wrong datacenter.",
    );
    expect(mc.requests).toHaveLength(1);
  });

  it('answers Member Exists for a second POST of the same address', async () => {
    const client = clientFor();
    await client.createMember(audienceId, { email: 'new.one@example.org', status: 'subscribed' });
    const error = await client.createMember(audienceId, { email: 'NEW.one@example.org', status: 'subscribed' }).catch((e: unknown) => e);
    expect((error as MailchimpError).title).toBe('Member Exists');
    expect((error as MailchimpError).message).toMatch(/^Member Exists: NEW\.one@example\.org is already a list member\. Use PUT/);
  });

  it('shows the field errors of an Invalid Resource problem instead of its generic detail', async () => {
    const error = await clientFor()
      .upsertMember(audienceId, { email: 'not-an-email' })
      .catch((e: unknown) => e);
    expect((error as MailchimpError).message).toBe('Invalid Resource: email_address: This value should be a valid email.');
    expect(readableProblem(400, { title: 'Resource Not Found', detail: 'The requested resource could not be found.' })).toBe(
      'Resource Not Found: The requested resource could not be found.',
    );
  });

  it('upserts with merge fields and tags, and never re-subscribes someone who unsubscribed', async () => {
    const client = clientFor();
    await expect(
      upsertAudienceMember(client, audienceId, {
        email: 'Fresh@Example.org',
        firstName: 'Fay',
        lastName: 'Fresh',
        phone: '0400 000 000',
        tags: ['Race Director', 'VIP'],
      }),
    ).resolves.toBe('added');
    expect(mc.member(audienceId, 'fresh@example.org')).toMatchObject({
      status: 'subscribed',
      merge_fields: { FNAME: 'Fay', LNAME: 'Fresh', PHONE: '0400 000 000' },
      tags: ['Race Director', 'VIP'],
    });
    expect(mc.requests).toContain(`POST /3.0/lists/${audienceId}/members/${subscriberHash('fresh@example.org')}/tags`);

    await expect(upsertAudienceMember(client, audienceId, { email: 'kept@example.org', firstName: 'Kim', tags: [] })).resolves.toBe(
      'updated',
    );
    await expect(upsertAudienceMember(client, audienceId, { email: 'gone@example.org', firstName: 'Gus', tags: ['x'] })).resolves.toBe(
      'unsubscribed',
    );
    expect(mc.member(audienceId, 'gone@example.org')).toMatchObject({ status: 'unsubscribed', merge_fields: { FNAME: 'Gus' } });
  });

  it('retries 429 (also without a JSON body) and 5xx, then succeeds: at most 4 attempts', async () => {
    mc.failNext(429, 1);
    mc.failNext(429, 1, '');
    mc.failNext(503, 1);
    expect((await clientFor().ping()).health_status).toBe("Everything's Chimpy!");
    expect(mc.requests).toHaveLength(4);
    mc.requests = [];
    mc.failNext(429, 5);
    const error = await clientFor()
      .ping()
      .catch((e: unknown) => e);
    expect((error as MailchimpError).status).toBe(429);
    expect((error as MailchimpError).message).toMatch(/Too Many Requests/);
    expect(mc.requests).toHaveLength(4);
  });

  it('does not retry a 404 for an unknown audience', async () => {
    const error = await clientFor()
      .upsertMember('nope', { email: 'a@example.org' })
      .catch((e: unknown) => e);
    expect((error as MailchimpError).status).toBe(404);
    expect(mc.requests).toHaveLength(1);
  });

  it('keeps at most 10 requests in flight however many are started', async () => {
    // Mailchimp holds its answers until as many requests as the client will send at once have arrived.
    const release = mc.holdAnswers();
    const client = clientFor({ timeoutMs: 60_000 });
    const all = Promise.all(Array.from({ length: 40 }, () => client.ping()));
    try {
      await waitUntil(() => mc.inFlight >= 10, '10 requests in flight');
    } finally {
      release();
    }
    const results = await all;
    expect(results).toHaveLength(40);
    expect(mc.peakInFlight).toBe(10);
    expect(mc.requests).toHaveLength(40); // none was throttled, so none was retried
  });

  it('times out a slow answer', async () => {
    // No answer comes until the client has given up, so only its own timer can end the request.
    const release = mc.holdAnswers();
    try {
      await expect(clientFor({ timeoutMs: 150 }).ping()).rejects.toThrow(/Mailchimp did not answer within 150 ms/);
    } finally {
      release();
    }
  });

  it('backs off exponentially with full jitter, capped, honouring Retry-After', () => {
    expect(backoffDelay(0, defaultRetryPolicy, () => 1)).toBe(300);
    expect(backoffDelay(3, defaultRetryPolicy, () => 1)).toBe(2400);
    expect(backoffDelay(10, defaultRetryPolicy, () => 1)).toBe(5000);
    expect(backoffDelay(2, defaultRetryPolicy, () => 0.5)).toBe(600);
    expect(backoffDelay(2, defaultRetryPolicy, () => 0)).toBe(50);
    expect(backoffDelay(0, defaultRetryPolicy, () => 1, 2)).toBe(2000);
    expect(backoffDelay(0, defaultRetryPolicy, () => 1, 60)).toBe(5000);
  });
});

import { Ajv2020 } from 'ajv/dist/2020.js';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import { declaredRoutes, openApiPath } from '@api/openapi/document.js';
import { describeOperations } from '@api/openapi/operations.js';
import { createApiRouter } from '@api/router.js';
import { apiPlumbing } from '@server/app.js';
import { RECORD_TYPE_INFO, RECORD_TYPES, type RecordType } from '@shared/record-types.js';
import type { ApiErrorBody } from '@shared/api-error.js';
import type { HistoryPage } from '@shared/history.js';
import type { StoredFile } from '@shared/schemas/attachments.js';
import type { PublicUser, SessionView } from '@shared/schemas/auth.js';
import type { JobView } from '@shared/schemas/jobs.js';
import type { SetPasswordLink } from '@services/users/links.js';
import type { PasskeyView, SignInEventView, TwoFactorStatus } from '@shared/schemas/auth.js';
import type { BackupListing } from '@shared/schemas/backups.js';
import type { Dashboard } from '@shared/schemas/dashboard.js';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointDetail } from '@shared/schemas/webhooks.js';
import type { EventCalendar } from '@shared/schemas/calendar.js';
import type { BulkMailchimpResult } from '@shared/schemas/bulk.js';
import type { IntegrationsOverview, MailchimpAccount, SyncResult, SyncRunView, WpSiteInfo } from '@shared/schemas/integrations.js';
import type { MentionableUser, Note, NoteList } from '@shared/schemas/notes.js';
import type { Stats } from '@shared/schemas/records.js';
import type { NotificationList, Task, TaskPage } from '@shared/schemas/tasks.js';
import type { DeletedItem } from '@shared/schemas/trash.js';
import type { SessionInfo } from '@shared/session.js';
import type {
  ApiErrorSchema,
  BackupListingSchema,
  BulkMailchimpResultSchema,
  DashboardSchema,
  DeletedItemSchema,
  EventCalendarSchema,
  IntegrationsOverviewSchema,
  HistoryPageSchema,
  JobViewSchema,
  MailchimpAccountSchema,
  MentionableUserSchema,
  NoteListSchema,
  NoteSchema,
  NotificationListSchema,
  PasskeyViewSchema,
  PublicUserSchema,
  SessionInfoSchema,
  SessionViewSchema,
  SetPasswordLinkSchema,
  SignInEventViewSchema,
  StatsSchema,
  StoredFileSchema,
  SyncResultSchema,
  SyncRunViewSchema,
  TaskPageSchema,
  TaskSchema,
  TwoFactorStatusSchema,
  WebhookDeliverySchema,
  WebhookEndpointDetailSchema,
  WebhookEndpointSchema,
  WpSiteInfoSchema,
} from '@shared/schemas/wire.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Document = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }>; security?: unknown[] }>
  >;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; scheme?: string }> };
};

/** The smallest valid body of each record type: its required name. */
const MINIMAL: Record<RecordType, Record<string, string>> = {
  event: { eventName: 'Contract Run' },
  professional: { businessName: 'Contract Coaching' },
  runclub: { clubName: 'Contract Club' },
  brand: { brandName: 'Contract Brand' },
  media: { mediaName: 'Contract Media' },
  influencer: { firstName: 'Casey', lastName: 'Contract' },
};

describe('the OpenAPI description', () => {
  let t: TestApp;
  let doc: Document;
  let ajv: Ajv2020;
  const DOC_ID = 'https://pacer.invalid/api/openapi.json';

  beforeAll(async () => {
    // Webhook endpoints on this machine are allowed, so one can be added without a resolvable outside host.
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    const res = await supertest(t.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as Document;
    // ajv in JSON Schema 2020-12 mode, the dialect of OpenAPI 3.1; formats are not checked (patterns are).
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ ...doc, $id: DOC_ID });
  });
  afterAll(() => t.close());

  /** The schema the document gives for an answer, its component references pointed into the whole document. */
  function answerSchema(method: string, path: string, status: number | string): unknown {
    const operation = doc.paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} in the document`).toBeDefined();
    const schema = operation!.responses[String(status)]?.content?.['application/json']?.schema;
    expect(schema, `${method} ${path} answers ${status} with a JSON schema`).toBeDefined();
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`)) as unknown;
  }

  /** A real answer checked against the document: the status it says, and a body its schema accepts. */
  function expectDescribed(method: string, path: string, res: { status: number; body: unknown; text: string }) {
    const validate = ajv.compile(answerSchema(method, path, res.status) as object);
    const valid = validate(res.body);
    expect(valid, `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}\n${res.text.slice(0, 500)}`).toBe(true);
  }

  it('describes every route of the API router, and nothing the router does not have', () => {
    const declared = declaredRoutes(createApiRouter(apiPlumbing));
    expect(declared.length).toBeGreaterThan(100);
    const descriptions = describeOperations();
    const missing = declared
      .filter(({ method, path }) => !descriptions.has(`${method} ${path}`))
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing, 'routes without a description in src/api/openapi/operations.ts').toEqual([]);
    for (const { method, path } of declared)
      expect(doc.paths[openApiPath(path)]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
    const routeKeys = new Set(declared.map(({ method, path }) => `${method} ${path}`));
    expect(
      [...descriptions.keys()].filter((key) => !routeKeys.has(key)),
      'descriptions of routes that do not exist',
    ).toEqual([]);
  });

  it('is OpenAPI 3.1 with the bearer scheme and the error shape, open without signing in, every schema compiling', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/openapi.json']!.get!.security).toEqual([]);
    expect(doc.paths['/api/brands']!.post!.responses['400']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    for (const [path, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations))
        for (const [status, answer] of Object.entries(operation.responses))
          if (answer.content?.['application/json']) expect(() => ajv.compile(answerSchema(method, path, status) as object)).not.toThrow();
  });

  it('gives every body and answer a real schema, never a bare object without properties', () => {
    const bare: string[] = [];
    const operations = doc.paths as unknown as Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema?: unknown }> };
          responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
        }
      >
    >;
    const isBare = (schema: unknown) => {
      const s = schema as Record<string, unknown> | undefined;
      return (
        s !== undefined && s.type === 'object' && s.properties === undefined && s.additionalProperties === undefined && s.$ref === undefined
      );
    };
    for (const [path, methods] of Object.entries(operations))
      for (const [method, operation] of Object.entries(methods)) {
        for (const content of Object.values(operation.requestBody?.content ?? {}))
          if (isBare(content.schema)) bare.push(`${method} ${path} body`);
        for (const [status, answer] of Object.entries(operation.responses))
          for (const content of Object.values(answer.content ?? {})) if (isBare(content.schema)) bare.push(`${method} ${path} ${status}`);
      }
    expect(bare).toEqual([]);
  });

  it('its schemas refuse what the wire types would not be', () => {
    const brand = ajv.compile(answerSchema('GET', '/api/brands/{id}', 200) as object);
    expect(brand({ brandName: 'No audit fields' })).toBe(false);
    const error = ajv.compile(answerSchema('GET', '/api/brands/{id}', 404) as object);
    expect(error({ message: 'x' })).toBe(false);
    expect(error({ message: 'x', code: 'not_found' })).toBe(true);
  });

  it('its answer schemas say what the wire types say', () => {
    expectTypeOf<z.output<typeof PublicUserSchema>>().toEqualTypeOf<PublicUser>();
    expectTypeOf<z.output<typeof StoredFileSchema>>().toEqualTypeOf<StoredFile>();
    expectTypeOf<z.output<typeof DeletedItemSchema>>().toEqualTypeOf<DeletedItem>();
    expectTypeOf<z.output<typeof SessionViewSchema>>().toEqualTypeOf<SessionView>();
    expectTypeOf<z.output<typeof JobViewSchema>>().toEqualTypeOf<JobView>();
    expectTypeOf<z.output<typeof HistoryPageSchema>>().toEqualTypeOf<HistoryPage>();
    expectTypeOf<z.output<typeof ApiErrorSchema>>().toEqualTypeOf<ApiErrorBody>();
    expectTypeOf<z.output<typeof SessionInfoSchema>>().toEqualTypeOf<SessionInfo>();
    expectTypeOf<z.output<typeof StatsSchema>>().toEqualTypeOf<Stats>();
    expectTypeOf<z.output<typeof SyncRunViewSchema>>().toEqualTypeOf<SyncRunView>();
    expectTypeOf<z.output<typeof DashboardSchema>>().toEqualTypeOf<Dashboard>();
    expectTypeOf<z.output<typeof EventCalendarSchema>>().toEqualTypeOf<EventCalendar>();
    expectTypeOf<z.output<typeof NoteSchema>>().toEqualTypeOf<Note>();
    expectTypeOf<z.output<typeof NoteListSchema>>().toEqualTypeOf<NoteList>();
    expectTypeOf<z.output<typeof MentionableUserSchema>>().toEqualTypeOf<MentionableUser>();
    expectTypeOf<z.output<typeof TaskSchema>>().toEqualTypeOf<Task>();
    expectTypeOf<z.output<typeof TaskPageSchema>>().toEqualTypeOf<TaskPage>();
    expectTypeOf<z.output<typeof NotificationListSchema>>().toEqualTypeOf<NotificationList>();
    expectTypeOf<z.output<typeof WebhookEndpointSchema>>().toEqualTypeOf<WebhookEndpoint>();
    expectTypeOf<z.output<typeof WebhookDeliverySchema>>().toEqualTypeOf<WebhookDelivery>();
    expectTypeOf<z.output<typeof WebhookEndpointDetailSchema>>().toEqualTypeOf<WebhookEndpointDetail>();
    expectTypeOf<z.output<typeof BackupListingSchema>>().toEqualTypeOf<BackupListing>();
    expectTypeOf<z.output<typeof SignInEventViewSchema>>().toEqualTypeOf<SignInEventView>();
    expectTypeOf<z.output<typeof TwoFactorStatusSchema>>().toEqualTypeOf<TwoFactorStatus>();
    expectTypeOf<z.output<typeof PasskeyViewSchema>>().toEqualTypeOf<PasskeyView>();
    expectTypeOf<z.output<typeof SetPasswordLinkSchema>>().toEqualTypeOf<SetPasswordLink>();
    expectTypeOf<z.output<typeof SyncResultSchema>>().toEqualTypeOf<SyncResult>();
    expectTypeOf<z.output<typeof IntegrationsOverviewSchema>>().toEqualTypeOf<IntegrationsOverview>();
    expectTypeOf<z.output<typeof WpSiteInfoSchema>>().toEqualTypeOf<WpSiteInfo>();
    expectTypeOf<z.output<typeof MailchimpAccountSchema>>().toEqualTypeOf<MailchimpAccount>();
    expectTypeOf<z.output<typeof BulkMailchimpResultSchema>>().toEqualTypeOf<BulkMailchimpResult>();
  });

  it('real answers of every record list, get, create and error match the document', async () => {
    const { agent } = await t.signedInAgent('contracts@example.org', 'admin');
    for (const type of RECORD_TYPES) {
      const base = RECORD_TYPE_INFO[type].apiPath;
      const created = await agent.post(base).send(MINIMAL[type]);
      expect(created.status, created.text).toBe(201);
      expectDescribed('POST', base, created);
      expectDescribed('GET', `${base}/{id}`, await agent.get(`${base}/${created.body.id}`));
      const list = await agent.get(`${base}?limit=1`);
      expect(list.status).toBe(200);
      expectDescribed('GET', base, list);
      expectDescribed('PUT', `${base}/{id}`, await agent.put(`${base}/${created.body.id}`).send(MINIMAL[type]));
      expectDescribed('GET', `${base}/{id}/history`, await agent.get(`${base}/${created.body.id}/history`));
      // Errors: bad input (with its issues), an unknown record.
      const refused = await agent.post(base).send({ nope: 1 });
      expect(refused.status).toBe(400);
      expectDescribed('POST', base, refused);
      const missing = await agent.get(`${base}/999999`);
      expect(missing.status).toBe(404);
      expectDescribed('GET', `${base}/{id}`, missing);
    }
  });

  it('real answers of contacts, payments, files, users, tokens, jobs and the rest match the document', async () => {
    const { agent } = await t.signedInAgent('contracts@example.org', 'admin');
    const brand = (await agent.post('/api/brands').send({ brandName: 'Owner Brand' })).body as { id: number };
    const contact = await agent
      .post('/api/contacts')
      .send({ firstName: 'Jo', lastName: 'Lane', email: 'jo@example.org', entityType: 'brand', entityId: brand.id });
    expect(contact.status, contact.text).toBe(201);
    expectDescribed('POST', '/api/contacts', contact);
    expectDescribed('GET', '/api/contacts/{id}', await agent.get(`/api/contacts/${contact.body.id}`));
    expectDescribed('GET', '/api/contacts/{entityType}/{entityId}', await agent.get(`/api/contacts/brand/${brand.id}`));
    expectDescribed('GET', '/api/contacts/{entityType}/{entityId}/owner', await agent.get(`/api/contacts/brand/${brand.id}/owner`));
    expectDescribed('GET', '/api/contacts', await agent.get('/api/contacts?limit=5'));
    expectDescribed('POST', '/api/contacts', await agent.post('/api/contacts').send({ firstName: '' }));

    const payment = await agent
      .post('/api/payments')
      .send({ entityType: 'brand', entityId: brand.id, description: 'Banner', amount: '12.30' });
    expect(payment.status, payment.text).toBe(201);
    expectDescribed('POST', '/api/payments', payment);
    expectDescribed('GET', '/api/payments', await agent.get(`/api/payments?entityType=brand&entityId=${brand.id}`));
    expectDescribed('GET', '/api/files/{entityType}/{entityId}', await agent.get(`/api/files/brand/${brand.id}`));

    expectDescribed('GET', '/api/users', await agent.get('/api/users'));
    expectDescribed('GET', '/api/sessions', await agent.get('/api/sessions'));
    expectDescribed('GET', '/api/stats', await agent.get('/api/stats'));
    expectDescribed('GET', '/api/search', await agent.get('/api/search?q=Owner'));
    expectDescribed('GET', '/api/jobs', await agent.get('/api/jobs'));
    expect((await agent.delete(`/api/brands/${brand.id}`)).status).toBe(204);
    expectDescribed('GET', '/api/deleted', await agent.get('/api/deleted'));

    const token = await agent.post('/api/api-tokens').send({ name: 'Contract', role: 'viewer', expiresInDays: 30 });
    expectDescribed('POST', '/api/api-tokens', token);
    expectDescribed('GET', '/api/api-tokens', await agent.get('/api/api-tokens'));
    // A token's refusals are the error shape too.
    const bearer = (path: string) =>
      supertest(t.app)
        .get(path)
        .set('Authorization', `Bearer ${token.body.token as string}`);
    expectDescribed('GET', '/api/brands', await bearer('/api/brands'));
    expectDescribed('GET', '/api/users', await bearer('/api/users'));
    expectDescribed('GET', '/api/brands', await supertest(t.app).get('/api/brands').set('Authorization', 'Bearer pcr_unknown'));
  });

  it('real answers of the session, dashboard, calendar, notes, tasks, notifications and sync runs match the document', async () => {
    expectDescribed('GET', '/api/session', await supertest(t.app).get('/api/session'));
    const { agent, user } = await t.signedInAgent('overview@example.org', 'admin');
    expectDescribed('GET', '/api/session', await agent.get('/api/session'));
    const event = await agent.post('/api/events').send({ eventName: 'Calendar Run', eventStartDate: '2026-12-05' });
    expect(event.status, event.text).toBe(201);
    expectDescribed('GET', '/api/dashboard', await agent.get('/api/dashboard'));
    const month = await agent.get('/api/calendar/events?month=2026-12');
    expect(month.body.events).toHaveLength(1);
    expectDescribed('GET', '/api/calendar/events', month);
    expectDescribed('GET', '/api/sync/runs', await agent.get('/api/sync/runs'));
    expectDescribed('GET', '/api/integrations/overview', await agent.get('/api/integrations/overview'));
    expectDescribed('GET', '/api/openapi.json', await agent.get('/api/openapi.json'));
    expectDescribed('GET', '/api/preferences', await agent.get('/api/preferences'));
    expectDescribed('PUT', '/api/preferences/{name}', await agent.put('/api/preferences/theme').send({ value: 'dark' }));

    const owner = { entityType: 'event', entityId: event.body.id };
    const note = await agent.post('/api/notes').send({ ...owner, body: 'Route changed' });
    expect(note.status, note.text).toBe(201);
    expectDescribed('POST', '/api/notes', note);
    expectDescribed('PUT', '/api/notes/{id}', await agent.put(`/api/notes/${note.body.id}`).send({ pinned: true }));
    expectDescribed('GET', '/api/notes', await agent.get(`/api/notes?entityType=event&entityId=${event.body.id}`));
    expectDescribed('GET', '/api/notes/mentionable', await agent.get('/api/notes/mentionable'));
    expectDescribed('POST', '/api/notes', await agent.post('/api/notes').send({ ...owner, body: '' }));

    const task = await agent.post('/api/tasks').send({ title: 'Call', dueDate: '2026-12-01', assigneeId: user.id, ...owner });
    expect(task.status, task.text).toBe(201);
    expectDescribed('POST', '/api/tasks', task);
    expectDescribed('GET', '/api/tasks/{id}', await agent.get(`/api/tasks/${task.body.id}`));
    expectDescribed('PUT', '/api/tasks/{id}', await agent.put(`/api/tasks/${task.body.id}`).send({ done: true }));
    expectDescribed('GET', '/api/tasks', await agent.get('/api/tasks'));
    expectDescribed('GET', '/api/notifications', await agent.get('/api/notifications'));
    expectDescribed('POST', '/api/notifications/read', await agent.post('/api/notifications/read').send({ all: true }));
  });

  it('real answers of users, sign-ins, two-factor, passkeys, security, webhooks, backups and restores match the document', async () => {
    const { agent } = await t.signedInAgent('admin-contracts@example.org', 'admin');
    const added = await agent
      .post('/api/users')
      .send({ email: 'new-contract@example.org', firstName: 'Nell', lastName: 'New', role: 'staff' });
    expect(added.status, added.text).toBe(201);
    expectDescribed('POST', '/api/users', added);
    const id = added.body.user.id as number;
    expectDescribed('PUT', '/api/users/{id}', await agent.put(`/api/users/${id}`).send({ role: 'viewer' }));
    const link = await agent.post(`/api/users/${id}/reset-link`);
    expectDescribed('POST', '/api/users/{id}/reset-link', link);
    const token = new URL(link.body.url as string).pathname.split('/').pop()!;
    expectDescribed('GET', '/api/set-password/{token}', await supertest(t.app).get(`/api/set-password/${token}`));
    expectDescribed('POST', '/api/users/{id}/reset-2fa', await agent.post(`/api/users/${id}/reset-2fa`));
    expectDescribed('GET', '/api/users/{id}/sign-ins', await agent.get(`/api/users/${id}/sign-ins`));
    const mine = await agent.get('/api/me/sign-ins');
    expect(mine.body.length).toBeGreaterThan(0);
    expectDescribed('GET', '/api/me/sign-ins', mine);
    expectDescribed('GET', '/api/me/two-factor', await agent.get('/api/me/two-factor'));
    expectDescribed('GET', '/api/me/passkeys', await agent.get('/api/me/passkeys'));
    expectDescribed('GET', '/api/security', await agent.get('/api/security'));
    expectDescribed('PUT', '/api/security', await agent.put('/api/security').send({ requireTwoFactor: false }));
    expectDescribed('PUT', '/api/security', await agent.put('/api/security').send({ requireTwoFactor: 'yes' }));
    expectDescribed('GET', '/api/backups', await agent.get('/api/backups'));

    const hook = await agent.post('/api/webhooks').send({ url: 'http://127.0.0.1:9/hook', events: ['record.created'] });
    expect(hook.status, hook.text).toBe(201);
    expectDescribed('GET', '/api/webhooks', await agent.get('/api/webhooks'));
    const delivery = await agent.post(`/api/webhooks/${hook.body.id}/test`);
    expect(delivery.status, delivery.text).toBe(202);
    expectDescribed('POST', '/api/webhooks/{id}/test', delivery);
    expectDescribed('GET', '/api/webhooks/{id}', await agent.get(`/api/webhooks/${hook.body.id}`));
    expectDescribed('POST', '/api/webhooks/{id}/enable', await agent.post(`/api/webhooks/${hook.body.id}/enable`));

    const brand = await agent.post('/api/brands').send({ brandName: 'Restored Brand' });
    expect((await agent.delete(`/api/brands/${brand.body.id}`)).status).toBe(204);
    const deleted = (await agent.get('/api/deleted')).body as Array<{ id: number; entityId: number }>;
    const entry = deleted.find((item) => item.entityId === brand.body.id)!;
    expectDescribed('POST', '/api/deleted/{id}/restore', await agent.post(`/api/deleted/${entry.id}/restore`));
    expect((await agent.delete(`/api/brands/${brand.body.id}`)).status).toBe(204);
    const undone = await agent.post('/api/deleted/undo').send({ type: 'brand', ids: [brand.body.id] });
    expect(undone.body).toEqual({ restored: 1 });
    expectDescribed('POST', '/api/deleted/undo', undone);
  });
});

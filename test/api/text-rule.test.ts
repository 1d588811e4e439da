import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RECORD_TYPE_INFO, RECORD_TYPES, recordApiPath, type RecordType } from '@shared/record-types.js';
import { IMPORT_COLUMNS } from '@shared/imports/rules.js';
import { AddMemberSchema } from '@services/integrations/service.js';
import { LoginSchema, SetupSchema } from '@shared/schemas/auth.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import { PaymentInputSchema } from '@shared/schemas/payments.js';
import { ListQuerySchemas, RecordInputSchemas } from '@shared/schemas/records.js';
import { INVALID_CHARACTER } from '@shared/schemas/text.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

/**
 * The text rule, end to end: every field of every schema that takes a string from outside refuses a lone surrogate
 * and NUL with a 400 naming the field, writes nothing, and stores a whole surrogate pair intact. The fields are read
 * from the schemas themselves, so a field added later is covered without touching this file.
 */

/** A lone high surrogate, a lone low one before text, and NUL inside text. */
const BAD = ['\ud800', '\udc00x', 'a\u0000b'] as const;
const EMOJI = '🏃';
/** Values that tell a text field from dates, numbers and enums: a field that accepts one of them takes text. */
const SAMPLES = ['Sample text', 'sample@example.org'];

type Agent = ReturnType<TestApp['agent']>;
type Body = Record<string, unknown>;
type ObjectSchema = z.ZodType & { shape: Record<string, z.ZodType> };

interface TextField {
  field: string;
  /** How the field takes text: one string, or a list of strings (some fields take both). */
  form: 'string' | 'list';
  value: (text: string) => unknown;
  /** A value the field accepts, which the emoji is added to. */
  sample: string;
}

/** Every field of an object schema that takes text, found by what the schema accepts on top of a valid body. */
function textFields(schema: ObjectSchema, base: Body): TextField[] {
  const found: TextField[] = [];
  for (const field of Object.keys(schema.shape)) {
    const asString = SAMPLES.find((sample) => schema.safeParse({ ...base, [field]: sample }).success);
    if (asString !== undefined) found.push({ field, form: 'string', value: (text) => text, sample: asString });
    const asList = SAMPLES.find((sample) => schema.safeParse({ ...base, [field]: [sample] }).success);
    if (asList !== undefined) found.push({ field, form: 'list', value: (text) => [asList, text], sample: asList });
  }
  return found;
}

/** The API's validation answer: 400, and the first issue is the field's (its path starts with the field name). */
function expectRefused(res: Response, field: string, what: string, isText: boolean) {
  expect(res.status, `${what}: ${res.text}`).toBe(400);
  expect(res.body.code, what).toBe('validation_failed');
  expect(String(res.body.issues?.[0]?.path).split('.')[0], what).toBe(field);
  if (isText) {
    expect(res.body.message, what).toBe(INVALID_CHARACTER);
    expect(res.body.issues[0].message, what).toBe(INVALID_CHARACTER);
  }
}

/**
 * Sends every bad value through every field of the schema (text fields in each form they take, the other fields
 * as a string) with `send`, and expects each to be refused naming the field.
 */
async function refuseEverywhere(schema: ObjectSchema, base: Body, label: string, send: (body: Body) => Promise<Response>) {
  const text = textFields(schema, base);
  const textNames = new Set(text.map((t) => t.field));
  for (const { field, form, value } of text) {
    for (const bad of BAD)
      expectRefused(await send({ ...base, [field]: value(bad) }), field, `${label} ${field} (${form}) ${JSON.stringify(bad)}`, true);
  }
  for (const field of Object.keys(schema.shape).filter((name) => !textNames.has(name))) {
    for (const bad of BAD) expectRefused(await send({ ...base, [field]: bad }), field, `${label} ${field} ${JSON.stringify(bad)}`, false);
  }
  return text;
}

/** Each text field given the emoji, where the field accepts it (an email address does not): what the API should store. */
function emojiBodies(schema: ObjectSchema, base: Body): Array<{ field: string; body: Body; stored: unknown }> {
  return textFields(schema, base).flatMap(({ field, value, sample }) => {
    const body = { ...base, [field]: value(`${EMOJI} ${sample} ${EMOJI}`) };
    const parsed = schema.safeParse(body);
    return parsed.success ? [{ field, body, stored: (parsed.data as Body)[field] }] : [];
  });
}

const database = process.env.TEST_DATABASE_URL ? 'MariaDB' : 'SQLite';
const count = async (t: TestApp, table: string) => Number(((await t.ctx.db(table).count({ n: '*' }).first()) as { n: number | string }).n);

describe(`first-run set-up and the text rule (${database})`, () => {
  // An app of its own: set-up only works while no user exists.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('refuses bad text in every field, creates no user, and keeps an emoji intact (in the password too)', async () => {
    const base = { email: 'admin@example.org', password: 'a long password', firstName: 'Ada', lastName: 'Admin' };
    const anonymous = t.agent();
    const fields = await refuseEverywhere(SetupSchema as unknown as ObjectSchema, base, 'set-up', (body) =>
      anonymous.post('/api/setup').send(body),
    );
    expect(fields.map((f) => f.field).sort()).toEqual(['email', 'firstName', 'lastName', 'password']);
    expect(await count(t, 'users')).toBe(0);

    const password = `run ${EMOJI} fast`;
    const created = await anonymous.post('/api/setup').send({ ...base, password, firstName: `Ada ${EMOJI}`, lastName: EMOJI });
    expect(created.status, created.text).toBe(201);
    expect(created.body.user).toMatchObject({ firstName: `Ada ${EMOJI}`, lastName: EMOJI });
    expect(await t.ctx.db('users').where({ email: base.email }).first('firstName', 'lastName')).toEqual({
      firstName: `Ada ${EMOJI}`,
      lastName: EMOJI,
    });
    expect((await t.agent().post('/api/login').send({ email: base.email, password })).status).toBe(200);
    // The emoji is part of the password, not dropped or replaced.
    expect((await t.agent().post('/api/login').send({ email: base.email, password: 'run \ufffd fast' })).status).toBe(401);
  });
});

describe(`the text rule through the API (${database})`, () => {
  let t: TestApp;
  let agent: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent('staff@example.org'));
  });
  afterAll(async () => t.close());

  it('login refuses bad text in the email and the password (NUL would cut a bcrypt password short) and signs nobody in', async () => {
    const before = await t.ctx.db('users').where({ email: 'staff@example.org' }).first('lastLogin');
    const fields = await refuseEverywhere(
      LoginSchema as unknown as ObjectSchema,
      { email: 'staff@example.org', password: TEST_PASSWORD },
      'login',
      (body) => t.agent().post('/api/login').send(body),
    );
    expect(fields.map((f) => f.field).sort()).toEqual(['code', 'email', 'password']);
    // Nothing was written: not even the last sign-in time.
    expect(await t.ctx.db('users').where({ email: 'staff@example.org' }).first('lastLogin')).toEqual(before);
    expect(
      (
        await t
          .agent()
          .post('/api/login')
          .send({ email: 'staff@example.org', password: `${TEST_PASSWORD}\u0000ignored` })
      ).status,
    ).toBe(400);
  });

  /** The smallest valid form per record type (its required names). */
  const RECORD_BASE: Record<RecordType, Body> = {
    event: { eventName: 'Base event' },
    professional: { businessName: 'Base business' },
    runclub: { clubName: 'Base club' },
    brand: { brandName: 'Base brand' },
    media: { mediaName: 'Base media' },
    influencer: { firstName: 'Base', lastName: 'Person' },
  };

  describe.each(RECORD_TYPES)('%s records', (kind) => {
    const schema = RecordInputSchemas[kind] as unknown as ObjectSchema;
    const base = RECORD_BASE[kind];

    it('POST and PUT refuse bad text in every field and write nothing', async () => {
      const created = await agent.post(recordApiPath(kind)).send(base);
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const rows = await count(t, RECORD_TYPE_INFO[kind].table);
      const fields = await refuseEverywhere(schema, base, `POST ${kind}`, (body) => agent.post(recordApiPath(kind)).send(body));
      await refuseEverywhere(schema, base, `PUT ${kind}`, (body) => agent.put(recordApiPath(kind, id)).send(body));
      expect(fields.length).toBeGreaterThanOrEqual(Object.keys(base).length + 3);
      expect(await count(t, RECORD_TYPE_INFO[kind].table)).toBe(rows);
      expect((await agent.get(recordApiPath(kind, id))).body).toEqual(created.body);
    });

    it('stores an emoji intact in every text field', async () => {
      const cases = emojiBodies(schema, base);
      expect(cases.length).toBeGreaterThanOrEqual(Object.keys(base).length + 3);
      for (const { field, body, stored } of cases) {
        const res = await agent.post(recordApiPath(kind)).send(body);
        expect(res.status, `${kind} ${field}: ${res.text}`).toBe(201);
        expect(res.body[field], field).toEqual(stored);
        expect((await agent.get(recordApiPath(kind, res.body.id))).body[field], field).toEqual(stored);
      }
    });

    it('list query parameters refuse NUL; lone surrogates cannot travel in a URL, so the schema is checked for them', async () => {
      const query = ListQuerySchemas[kind] as unknown as ObjectSchema;
      for (const param of Object.keys(query.shape)) {
        const res = await agent.get(`${recordApiPath(kind)}?${param}=a%00b`);
        expectRefused(res, param, `${kind} ?${param}`, param === 'q');
        for (const bad of BAD) {
          const parsed = query.safeParse({ [param]: bad });
          expect(parsed.success, `${kind} ${param} ${JSON.stringify(bad)}`).toBe(false);
          expect(parsed.error?.issues[0]?.path).toEqual([param]);
        }
      }
      // Percent-encoded surrogate halves are not UTF-8: the URL decoder already made them U+FFFD, which is text.
      expect((await agent.get(`${recordApiPath(kind)}?q=%ED%A0%80`)).status).toBe(200);
      const emoji = await agent.get(recordApiPath(kind)).query({ q: EMOJI });
      expect(emoji.status).toBe(200);
    });
  });

  describe('contacts and payments', () => {
    let eventId: number;
    beforeAll(async () => {
      eventId = (await agent.post(recordApiPath('event')).send({ eventName: 'Owner' })).body.id as number;
    });

    it('contacts: POST and PUT refuse bad text in every field, mailchimpTags as a string and as a list, and write nothing', async () => {
      const base = { firstName: 'Jo', lastName: 'Lee', entityType: 'event', entityId: eventId };
      const created = await agent.post('/api/contacts').send({ ...base, mailchimpTags: 'kept' });
      expect(created.status).toBe(201);
      const schema = ContactInputSchema as unknown as ObjectSchema;
      const fields = await refuseEverywhere(schema, base, 'POST contact', (body) => agent.post('/api/contacts').send(body));
      await refuseEverywhere(schema, base, 'PUT contact', (body) => agent.put(`/api/contacts/${created.body.id}`).send(body));
      expect(fields.filter((f) => f.field === 'mailchimpTags').map((f) => f.form)).toEqual(['string', 'list']);
      expect(fields.map((f) => f.field)).toEqual(expect.arrayContaining(['firstName', 'lastName', 'jobTitle', 'email', 'phone', 'notes']));
      expect(await count(t, 'contacts')).toBe(1);
      expect((await agent.get(`/api/contacts/${created.body.id}`)).body).toEqual(created.body);
    });

    it('contacts: store an emoji intact in every text field', async () => {
      const base = { firstName: 'Jo', lastName: 'Lee', entityType: 'event', entityId: eventId };
      const cases = emojiBodies(ContactInputSchema as unknown as ObjectSchema, base);
      expect(cases.map((c) => c.field)).toEqual(expect.arrayContaining(['firstName', 'notes', 'mailchimpTags']));
      for (const { field, body, stored } of cases) {
        const res = await agent.post('/api/contacts').send(body);
        expect(res.status, `${field}: ${res.text}`).toBe(201);
        expect((await agent.get(`/api/contacts/${res.body.id}`)).body[field], field).toEqual(stored);
      }
    });

    it('payments: POST and PUT refuse bad text in every field and write nothing', async () => {
      const base = { entityType: 'event', entityId: eventId, description: 'Banner', amount: '10.00' };
      const created = await agent.post('/api/payments').send(base);
      expect(created.status).toBe(201);
      const schema = PaymentInputSchema as unknown as ObjectSchema;
      const fields = await refuseEverywhere(schema, base, 'POST payment', (body) => agent.post('/api/payments').send(body));
      await refuseEverywhere(schema, base, 'PUT payment', (body) => agent.put(`/api/payments/${created.body.id}`).send(body));
      expect(fields.map((f) => f.field)).toEqual(
        expect.arrayContaining(['description', 'paymentType', 'invoiceNumber', 'paymentMethod', 'notes']),
      );
      const list = await agent.get(`/api/payments?entityType=event&entityId=${eventId}`);
      expect(list.body.items).toEqual([created.body]);
      expect(list.body.totalAmount).toBe('10.00');
    });

    it('payments: store an emoji intact in every text field', async () => {
      const base = { entityType: 'event', entityId: eventId, description: 'Banner', amount: '1.00' };
      for (const { field, body, stored } of emojiBodies(PaymentInputSchema as unknown as ObjectSchema, base)) {
        const res = await agent.post('/api/payments').send(body);
        expect(res.status, `${field}: ${res.text}`).toBe(201);
        expect(res.body[field], field).toEqual(stored);
      }
    });
  });

  it('the add-member form of the email-marketing tab refuses bad text in every field before anything is sent', async () => {
    const fields = await refuseEverywhere(AddMemberSchema as unknown as ObjectSchema, { email: 'jo@example.org' }, 'add member', (body) =>
      agent.post('/api/mailchimp/audiences/abc123/members').send(body),
    );
    expect(fields.map((f) => `${f.field} (${f.form})`).sort()).toEqual([
      'email (string)',
      'firstName (string)',
      'lastName (string)',
      'phone (string)',
      'tags (list)',
    ]);
  });

  describe('bulk imports (JSON rows)', () => {
    const WORDPRESS_ID = 4242;
    let eventId: number;
    beforeAll(async () => {
      const [id] = await t.ctx.db('events').insert({
        eventName: 'Imported race',
        wordpressEventId: WORDPRESS_ID,
        websiteUrl: 'https://old.example.org',
        createdAt: '2026-11-21 09:00:00',
        updatedAt: '2026-11-21 09:00:00',
      });
      eventId = Number(id);
    });

    /** Every column the import reads, named as the spec spells it; first and last name blank so the Name column is read too. */
    const eventRow = (): Record<string, string> => ({
      [IMPORT_COLUMNS.events.eventId.name]: String(WORDPRESS_ID),
      [IMPORT_COLUMNS.events.website.name]: 'https://new.example.org',
      [IMPORT_COLUMNS.events.email.name]: 'race@example.org',
      [IMPORT_COLUMNS.events.firstName.name]: '',
      [IMPORT_COLUMNS.events.lastName.name]: '',
      [IMPORT_COLUMNS.events.fullName.name]: 'Rae Runner',
    });
    const brandRow = (): Record<string, string> => ({
      [IMPORT_COLUMNS.brands.brand.name]: 'Fresh Brand',
      [IMPORT_COLUMNS.brands.firstName.name]: 'Bo',
      [IMPORT_COLUMNS.brands.lastName.name]: 'Brand',
      [IMPORT_COLUMNS.brands.email.name]: 'bo@brand.example.org',
      [IMPORT_COLUMNS.brands.jobTitle.name]: 'Buyer',
    });

    it('events: a cell with bad text in any column is a row error naming the column, and nothing is written', async () => {
      const contacts = await count(t, 'contacts');
      for (const column of Object.values(IMPORT_COLUMNS.events)) {
        for (const bad of BAD) {
          const row = { ...eventRow(), [column.name]: bad };
          // A blank first and last name make the Name column the one read; a bad one of them must still be refused.
          const res = await agent.post('/api/events/bulk-import').send({ data: [row] });
          const what = `${column.name} ${JSON.stringify(bad)}`;
          expect(res.status, what).toBe(200);
          expect(res.body, what).toEqual({
            updated: 0,
            created: 0,
            skipped: 1,
            errors: [`Line 2: ${column.name} contains an invalid character`],
          });
        }
      }
      expect(await count(t, 'contacts')).toBe(contacts);
      expect(await t.ctx.db('events').where({ id: eventId }).first('websiteUrl')).toEqual({ websiteUrl: 'https://old.example.org' });
    });

    it('brands: a cell with bad text in any column is a row error naming the column, and nothing is written (no 500)', async () => {
      const [brands, contacts] = [await count(t, 'brands'), await count(t, 'contacts')];
      for (const column of Object.values(IMPORT_COLUMNS.brands)) {
        for (const bad of BAD) {
          const res = await agent.post('/api/brands/bulk-import').send({ data: [{ ...brandRow(), [column.name]: bad }] });
          const what = `${column.name} ${JSON.stringify(bad)}`;
          expect(res.status, `${what}: ${res.text}`).toBe(200);
          expect(res.body, what).toEqual({
            brandsCreated: 0,
            contactsCreated: 0,
            skipped: 1,
            errors: [`Line 2: ${column.name} contains an invalid character`],
          });
        }
      }
      expect([await count(t, 'brands'), await count(t, 'contacts')]).toEqual([brands, contacts]);
    });

    it('imports keep an emoji intact in names', async () => {
      const brand = await agent
        .post('/api/brands/bulk-import')
        .send({ data: [{ ...brandRow(), Brand: `Run ${EMOJI} Co`, 'First Name': `Bo ${EMOJI}` }] });
      expect(brand.body).toEqual({ brandsCreated: 1, contactsCreated: 1, skipped: 0, errors: [] });
      const stored = await t.ctx
        .db('brands')
        .where({ brandName: `Run ${EMOJI} Co` })
        .first('id');
      expect(await t.ctx.db('contacts').where({ entityType: 'brand', entityId: stored.id }).first('firstName')).toEqual({
        firstName: `Bo ${EMOJI}`,
      });

      const event = await agent.post('/api/events/bulk-import').send({ data: [{ ...eventRow(), Name: `${EMOJI} Rae Runner` }] });
      expect(event.body).toMatchObject({ updated: 1, created: 1, errors: [] });
      expect(await t.ctx.db('contacts').where({ entityType: 'event', entityId: eventId }).first('firstName', 'lastName')).toEqual({
        firstName: EMOJI,
        lastName: 'Rae Runner',
      });
    });
  });
});

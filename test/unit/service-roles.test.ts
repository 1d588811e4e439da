import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, type Actor, type AppContext } from '@services/context.js';
import { createContact, deleteContact, updateContact } from '@services/contacts/service.js';
import { deleteFile, storeUpload } from '@services/files/service.js';
import { importBrands, importEvents } from '@services/imports/service.js';
import { addAudienceMember } from '@services/integrations/service.js';
import { createPayment, deletePayment, updatePayment } from '@services/payments/service.js';
import { createRecord, deleteRecord, updateRecord } from '@services/records/service.js';
import { runSync } from '@services/sync/service.js';
import { listUsers, updateUserAccount } from '@services/users/service.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const viewer: Actor = { userId: 1, source: 'web', role: 'viewer' };
const staff: Actor = { userId: 1, source: 'web', role: 'staff' };
const noRows = { header: [], rows: (async function* () {})() } as never;
const noUpload = { fields: {}, files: [] } as never;

/**
 * The services every caller goes through (the API, the pages' data source, the CLI, and the bulk and background
 * work other branches add) refuse a role that may not do the write, before reading anything.
 */
const WRITES: Array<[name: string, needs: 'staff' | 'admin', call: (ctx: AppContext, actor: Actor) => Promise<unknown>]> = [
  ['createRecord', 'staff', (ctx, a) => createRecord(ctx, a, 'brand', {})],
  ['updateRecord', 'staff', (ctx, a) => updateRecord(ctx, a, 'brand', '1', {})],
  ['deleteRecord', 'staff', (ctx, a) => deleteRecord(ctx, a, 'brand', '1')],
  ['createContact', 'staff', (ctx, a) => createContact(ctx, a, {})],
  ['updateContact', 'staff', (ctx, a) => updateContact(ctx, a, 1, {})],
  ['deleteContact', 'staff', (ctx, a) => deleteContact(ctx, a, 1)],
  ['createPayment', 'staff', (ctx, a) => createPayment(ctx, a, {})],
  ['updatePayment', 'staff', (ctx, a) => updatePayment(ctx, a, 1, {})],
  ['deletePayment', 'staff', (ctx, a) => deletePayment(ctx, a, 1)],
  ['storeUpload', 'staff', (ctx, a) => storeUpload(ctx, a, noUpload)],
  ['deleteFile', 'staff', (ctx, a) => deleteFile(ctx, a, 1)],
  ['importEvents', 'staff', (ctx, a) => importEvents(ctx, noRows, { actor: a })],
  ['importBrands', 'staff', (ctx, a) => importBrands(ctx, noRows, { actor: a })],
  ['runSync', 'staff', (ctx, a) => runSync(ctx, 'events', { actor: a })],
  ['addAudienceMember', 'staff', (ctx, a) => addAudienceMember(ctx, a, 'abc', {})],
  ['listUsers', 'admin', (ctx, a) => listUsers(ctx, a)],
  ['updateUserAccount', 'admin', (ctx, a) => updateUserAccount(ctx, a, 1, {})],
];

describe('role checks in the services', () => {
  let database: TestDatabase;
  let ctx: AppContext;
  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = { db: database.db, log: pino({ level: 'silent' }), config: testConfig(), clock: new FakeClock() };
  });
  afterAll(() => database.destroy());

  it.each(WRITES)('%s refuses a viewer (and staff when it needs an admin) with 403', async (_name, needs, call) => {
    await expect(call(ctx, viewer)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    if (needs === 'admin')
      await expect(call(ctx, staff)).rejects.toMatchObject({ status: 403, message: expect.stringContaining('needs an admin') });
  });

  it('gives the CLI the rights of an admin, named after the OS user', () => {
    expect(cliActor()).toMatchObject({ userId: null, source: 'cli', role: 'admin', osUser: expect.any(String) });
  });
});

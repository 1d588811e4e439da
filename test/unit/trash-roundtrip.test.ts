import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { createContact } from '@services/contacts/service.js';
import type { Actor, AppContext } from '@services/context.js';
import { createPayment } from '@services/payments/service.js';
import { CHANGES_BUCKET } from '@services/records/derived.js';
import { createRecord, deleteRecord } from '@services/records/service.js';
import { listDeleted, purgeDeleted, restoreDeleted } from '@services/trash/service.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, RECORD_TYPES, type RecordType } from '@shared/record-types.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

const admin: Actor = { userId: null, source: 'cli', role: 'admin', osUser: 'tester' };
const NAME_FIELDS: Record<RecordType, (name: string) => Record<string, string>> = {
  event: (name) => ({ eventName: name }),
  professional: (name) => ({ businessName: name }),
  runclub: (name) => ({ clubName: name }),
  brand: (name) => ({ brandName: name }),
  media: (name) => ({ mediaName: name }),
  influencer: (name) => ({ firstName: name, lastName: 'Runner' }),
};

/** Everything a record is in the database: its row, what it owns, its search document and the counts. */
async function stateOf(db: TestDatabase['db'], kind: RecordType, id: number) {
  const owner = { entityType: kind, entityId: id };
  const kindNumber = RECORD_TYPES.indexOf(kind);
  return {
    record: await db(RECORD_TYPE_INFO[kind].table).where({ id }).first(),
    contacts: await db('contacts').where(owner).orderBy('id'),
    payments: await db('payments').where(owner).orderBy('id'),
    files: await db('files').where(owner).orderBy('id'),
    distances: kind === 'event' ? await db('event_distances').where({ eventId: id }).orderBy('id') : [],
    search: await db('record_search_docs').where({ recordId: id }).orderBy('kind'),
    // Every count but the change numbers, which count the delete and the restore as changes.
    counts: await db('record_counts').whereNot({ bucket: CHANGES_BUCKET }).orderBy(['kind', 'bucket']),
    kindNumber,
  };
}

describe(`delete then restore round trips exactly (${testDialect})`, () => {
  let database: TestDatabase;
  let ctx: AppContext;
  let uploadDir: string;
  const clock = new FakeClock();

  beforeAll(async () => {
    database = await createTestDatabase();
    uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-trash-'));
    ctx = { db: database.db, log: pino({ level: 'silent' }), config: testConfig({ UPLOAD_DIR: uploadDir }), clock };
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('for random records with contacts (one primary), payments and files', async () => {
    const amount = fc.integer({ min: 1, max: 99_999 }).map((cents) => (cents / 100).toFixed(2));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RECORD_TYPES),
        fc.stringMatching(/^[A-Za-z0-9 '.,&éü-]{1,30}$/).filter((s) => s.trim().length > 0),
        fc.array(fc.boolean(), { maxLength: 3 }),
        fc.array(amount, { maxLength: 3 }),
        fc.integer({ min: 0, max: 2 }),
        async (kind, name, contactPrimaries, amounts, fileCount) => {
          const record = await createRecord(ctx, admin, kind, NAME_FIELDS[kind](name.trim()));
          const id = record.id;
          if ((CONTACT_OWNER_TYPES as readonly string[]).includes(kind))
            for (const [index, isPrimary] of contactPrimaries.entries())
              await createContact(ctx, admin, {
                firstName: `C${index}`,
                lastName: 'Person',
                email: `c${index}.${id}@example.org`,
                entityType: kind,
                entityId: id,
                isPrimary,
              });
          for (const value of amounts)
            await createPayment(ctx, admin, { entityType: kind, entityId: id, description: 'Ad', amount: value });
          for (let f = 0; f < fileCount; f++)
            await database.db('files').insert({
              entityType: kind,
              entityId: id,
              fileName: `${kind}-${id}-${f}.png`,
              originalName: `photo ${f}.png`,
              filePath: `${kind}-${id}-${f}.png`,
              fileType: 'image/png',
              fileSize: 10 + f,
              fileCategory: 'image',
              uploadedAt: encodeTimestamp(clock.now()),
            });
          if (kind === 'event')
            await database.db('event_distances').insert({ eventId: id, distanceKm: '42.20', createdAt: encodeTimestamp(clock.now()) });

          const before = await stateOf(database.db, kind, id);
          await deleteRecord(ctx, admin, kind, String(id));
          expect((await stateOf(database.db, kind, id)).record).toBeUndefined();
          const [entry] = await listDeleted(ctx, admin);
          expect(entry).toMatchObject({
            type: kind,
            entityId: id,
            deletedBy: 'tester',
            holds: { payments: amounts.length, files: fileCount },
          });

          await restoreDeleted(ctx, admin, entry!.id);
          expect(await stateOf(database.db, kind, id)).toEqual(before);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  it('reports a unique WordPress id taken meanwhile instead of overwriting it, and purges what is older', async () => {
    const event = await createRecord(ctx, admin, 'event', { eventName: 'Synced race' });
    await database.db('events').where({ id: event.id }).update({ wordpressEventId: 777 });
    await deleteRecord(ctx, admin, 'event', String(event.id));
    const taker = await createRecord(ctx, admin, 'event', { eventName: 'Took the id' });
    await database.db('events').where({ id: taker.id }).update({ wordpressEventId: 777 });
    const [entry] = await listDeleted(ctx, admin);
    await expect(restoreDeleted(ctx, admin, entry!.id)).rejects.toMatchObject({
      status: 409,
      message: "Event 'Synced race' cannot be restored: one of its unique values (such as its WordPress id) is used by another row now",
    });
    expect(await database.db('events').where({ id: event.id }).first()).toBeUndefined();
    expect((await listDeleted(ctx, admin)).map((item) => item.id)).toContain(entry!.id);

    const staff: Actor = { userId: null, source: 'web', role: 'staff' };
    await expect(restoreDeleted(ctx, staff, entry!.id)).rejects.toMatchObject({ status: 403 });
    await expect(listDeleted(ctx, staff)).rejects.toMatchObject({ status: 403 });

    const all = (await listDeleted(ctx, admin)).length;
    clock.advance(29 * 86_400_000);
    const fresh = await createRecord(ctx, admin, 'brand', { brandName: 'Deleted later' });
    await deleteRecord(ctx, admin, 'brand', String(fresh.id));
    clock.advance(2 * 86_400_000);
    const dry = await purgeDeleted(ctx, { olderThanMs: 30 * 86_400_000, dryRun: true });
    expect(dry.items).toHaveLength(all);
    expect((await listDeleted(ctx, admin)).length).toBe(all + 1);
    const purged = await purgeDeleted(ctx, { olderThanMs: 30 * 86_400_000, dryRun: false });
    expect(purged.items).toHaveLength(all);
    expect((await listDeleted(ctx, admin)).map((item) => item.name)).toEqual(['Deleted later']);
  });
});

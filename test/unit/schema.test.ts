import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { assertDatabaseSafety } from '@db/knex.js';
import { migrationStatus, rollbackLast } from '@db/migrate.js';
import { migrateToLatest } from '@services/schema.js';
import { existingContactKeys } from '@services/imports/queries.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

const now = encodeTimestamp(new Date('2026-11-21T10:00:00Z'));

describe(`schema on ${testDialect}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.destroy());

  it('is strict and utf8mb4 on MySQL/MariaDB (checked at boot)', async () => {
    await expect(assertDatabaseSafety(t.db)).resolves.toBeUndefined();
  });

  it('round-trips a 4-byte emoji unchanged', async () => {
    const name = 'Sunrise 10K 🏃‍♀️🔥 — “quotes”';
    const [id] = await t.db('events').insert({ eventName: name, createdAt: now, updatedAt: now });
    const row = await t.db('events').where({ id }).first();
    expect(row.eventName).toBe(name);
  });

  it('applies the stated defaults', async () => {
    const [eventId] = await t.db('events').insert({ eventName: 'Defaults', createdAt: now, updatedAt: now });
    const event = decodeRow<Record<string, unknown>>(columnKinds.events, await t.db('events').where({ id: eventId }).first());
    expect(event).toMatchObject({ featuredRace: false, totalAdvertisingSpend: '0.00' });
    const [proId] = await t.db('professionals').insert({ businessName: 'Physio Co', createdAt: now, updatedAt: now });
    const pro = decodeRow<Record<string, unknown>>(columnKinds.professionals, await t.db('professionals').where({ id: proId }).first());
    expect(pro).toMatchObject({ subscriptionStatus: 'active', totalPayments: '0.00', paymentAlertFlag: false });
    const [clubId] = await t.db('run_clubs').insert({ clubName: 'Dawn Patrol', createdAt: now, updatedAt: now });
    const club = decodeRow<Record<string, unknown>>(columnKinds.run_clubs, await t.db('run_clubs').where({ id: clubId }).first());
    expect(club).toMatchObject({ paymentStatus: 'none', isPayingMember: false });
    const [brandId] = await t.db('brands').insert({ brandName: 'Stride', createdAt: now, updatedAt: now });
    expect((await t.db('brands').where({ id: brandId }).first()).paymentStatus).toBe('current');
    const [infId] = await t.db('influencers').insert({ firstName: 'A', lastName: 'B', createdAt: now, updatedAt: now });
    expect((await t.db('influencers').where({ id: infId }).first()).influencerType).toBe('influencer');
    const [payId] = await t
      .db('payments')
      .insert({ entityType: 'brand', entityId: brandId, description: 'Ad', amount: '10.50', createdAt: now, updatedAt: now });
    expect((await t.db('payments').where({ id: payId }).first()).invoiceStatus).toBe('pending');
    const [scheduleId] = await t.db('run_club_schedules').insert({ clubId, createdAt: now });
    expect(
      decodeRow<{ isRecurring: boolean }>(
        columnKinds.run_club_schedules,
        await t.db('run_club_schedules').where({ id: scheduleId }).first(),
      ).isRecurring,
    ).toBe(true);
  });

  it('refuses missing required fields', async () => {
    await expect(t.db('events').insert({ createdAt: now, updatedAt: now })).rejects.toThrow();
    await expect(
      t.db('contacts').insert({ firstName: 'A', entityType: 'event', entityId: 1, createdAt: now, updatedAt: now }),
    ).rejects.toThrow();
    await expect(
      t.db('payments').insert({ entityType: 'event', entityId: 1, description: 'x', createdAt: now, updatedAt: now }),
    ).rejects.toThrow();
  });

  it('keeps emails and tag names unique', async () => {
    await t.db('users').insert({ email: 'dup@example.org', passwordHash: 'x', createdAt: now });
    await expect(t.db('users').insert({ email: 'dup@example.org', passwordHash: 'y', createdAt: now })).rejects.toThrow();
    await t.db('mailchimp_tags').insert({ tagName: 'runners', createdAt: now });
    await expect(t.db('mailchimp_tags').insert({ tagName: 'runners', createdAt: now })).rejects.toThrow();
  });

  it('keeps exact decimals at their precisions', async () => {
    const [id] = await t.db('events').insert({
      eventName: 'Precise',
      locationLat: '-33.86882012',
      locationLng: '151.20929912',
      totalAdvertisingSpend: '12345678.91',
      createdAt: now,
      updatedAt: now,
    });
    const row = decodeRow<Record<string, unknown>>(columnKinds.events, await t.db('events').where({ id }).first());
    expect(row).toMatchObject({ locationLat: '-33.86882012', locationLng: '151.20929912', totalAdvertisingSpend: '12345678.91' });
    const [distanceId] = await t.db('event_distances').insert({ eventId: id, distanceKm: '42.20', createdAt: now });
    expect(
      decodeRow<{ distanceKm: string }>(columnKinds.event_distances, await t.db('event_distances').where({ id: distanceId }).first())
        .distanceKm,
    ).toBe('42.20');
  });

  it('enforces the foreign keys of distances and schedules, cascading on delete', async () => {
    await expect(t.db('event_distances').insert({ eventId: 999_999, createdAt: now })).rejects.toThrow();
    await expect(t.db('run_club_schedules').insert({ clubId: 999_999, createdAt: now })).rejects.toThrow();
    const [eventId] = await t.db('events').insert({ eventName: 'Cascade', createdAt: now, updatedAt: now });
    await t.db('event_distances').insert({ eventId, createdAt: now });
    await t.db('events').where({ id: eventId }).delete();
    expect(await t.db('event_distances').where({ eventId })).toHaveLength(0);
  });

  it('keeps wordpress ids unique but allows many records without one', async () => {
    await t.db('events').insert([
      { eventName: 'No WP 1', createdAt: now, updatedAt: now },
      { eventName: 'No WP 2', createdAt: now, updatedAt: now },
      { eventName: 'WP', wordpressEventId: 77, createdAt: now, updatedAt: now },
    ]);
    await expect(t.db('events').insert({ eventName: 'WP again', wordpressEventId: 77, createdAt: now, updatedAt: now })).rejects.toThrow();
  });

  it("answers an import's duplicate-address lookup from an index alone", async () => {
    let lookup: { sql: string; bindings: Knex.Value[] } | undefined;
    const capture = (query: { sql: string; bindings: Knex.Value[] }) => (lookup ??= query);
    t.db.on('query', capture);
    try {
      await existingContactKeys(t.db, 'brand', ['Pat@Example.org', 'lee@example.org']);
    } finally {
      t.db.off('query', capture);
    }
    if (testDialect === 'mysql') {
      const [plan] = (await t.db.raw('EXPLAIN ' + lookup!.sql, lookup!.bindings)) as [Array<{ key: string | null; Extra: string | null }>];
      expect(plan[0]!.key).toBe('contacts_email_id_owner_index');
      // "Using index": the owner comes from the index, no row is read.
      expect(plan[0]!.Extra).toContain('Using index');
    } else {
      const plan = (await t.db.raw('EXPLAIN QUERY PLAN ' + lookup!.sql, lookup!.bindings)) as Array<{ detail: string }>;
      expect(plan.map((step) => step.detail).join('\n')).toContain('USING INDEX contacts_entitytype_lower_email');
    }
  });

  if (testDialect === 'mysql') {
    it('refuses over-long text instead of truncating it (strict mode)', async () => {
      await expect(t.db('media').insert({ mediaName: 'x'.repeat(300), createdAt: now, updatedAt: now })).rejects.toThrow(/too long/i);
    });
  }
});

describe(`migrations on ${testDialect}`, () => {
  it('roll back to nothing and apply again', async () => {
    const t = await createTestDatabase();
    try {
      const before = await migrationStatus(t.db);
      expect(before.pending).toEqual([]);
      while ((await rollbackLast(t.db)).length > 0) {
        // Roll back every batch.
      }
      expect(await t.db.schema.hasTable('events')).toBe(false);
      expect((await migrationStatus(t.db)).applied).toEqual([]);
      await migrateToLatest(t.db);
      expect(await t.db.schema.hasTable('events')).toBe(true);
      expect((await migrateToLatest(t.db)).applied).toEqual([]);
    } finally {
      await t.destroy();
    }
  });
});

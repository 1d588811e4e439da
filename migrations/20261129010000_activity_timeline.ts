import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * One activity timeline per record and the admin activity log (issue 33 points 4 and 5; docs/decisions/0106).
 * History rows gain the record they belong to (ownerType, ownerId): the record itself for its own changes, the
 * owning record for a payment, file or contact, so a record's timeline reads its changes, payments, files and
 * contacts in one indexed statement. Rows written before this migration get their owner from the payment, file or
 * contact as it is now; a row whose payment, file or contact is already gone keeps no owner (not back-filled).
 * `activity_events` holds what has no row of its own: exports and Mailchimp pushes.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  await knex.schema.alterTable('history', (t) => {
    t.string('ownerType', 20).nullable();
    t.integer('ownerId').unsigned().nullable();
  });
  await knex('history')
    .whereNotIn('entityType', ['payment', 'file', 'contact', 'user'])
    .update({ ownerType: knex.ref('entityType'), ownerId: knex.ref('entityId') });
  for (const [subject, table] of [
    ['payment', 'payments'],
    ['file', 'files'],
    ['contact', 'contacts'],
  ] as const) {
    const owner = (column: string) => knex(table).select(`${table}.${column}`).where(`${table}.id`, knex.ref('history.entityId')).limit(1);
    await knex('history')
      .where('entityType', subject)
      .update({ ownerType: owner('entityType'), ownerId: owner('entityId') });
  }
  await knex.schema.alterTable('history', (t) => {
    t.index(['ownerType', 'ownerId', 'at', 'id'], 'history_owner_at');
    t.index(['at', 'id'], 'history_at');
  });

  await knex.schema.createTable('activity_events', (t) => {
    mysqlTableOptions(knex, t);
    t.bigIncrements('id');
    t.string('ownerType', 20).nullable();
    t.integer('ownerId').unsigned().nullable();
    // 'export' or 'mailchimp'.
    t.string('kind', 20).notNullable();
    t.integer('actorId').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    // user, cli or token, as history's actorKind.
    t.string('source', 10).notNullable();
    t.string('actorLabel', 200).notNullable();
    t.string('summary', 500).notNullable();
    t.specificType('createdAt', mysql ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.index(['ownerType', 'ownerId', 'createdAt', 'id'], 'activity_events_owner');
    t.index(['createdAt', 'id'], 'activity_events_created');
  });
  await knex.schema.alterTable('sign_in_events', (t) => {
    t.index(['occurredAt', 'id'], 'sign_in_events_occurred');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sign_in_events', (t) => t.dropIndex(['occurredAt', 'id'], 'sign_in_events_occurred'));
  await knex.schema.dropTableIfExists('activity_events');
  await knex.schema.alterTable('history', (t) => {
    t.dropIndex(['ownerType', 'ownerId', 'at', 'id'], 'history_owner_at');
    t.dropIndex(['at', 'id'], 'history_at');
  });
  await knex.schema.alterTable('history', (t) => {
    t.dropColumn('ownerType');
    t.dropColumn('ownerId');
  });
}

import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * Issue 32 (docs/decisions/0111-webhook-deliveries-carry-their-event.md): each webhook delivery holds its event (the
 * message id, type and exact body) instead of pointing at a row of webhook_events, so a change writes one row into
 * the outbox per endpoint, in one statement, instead of an event and then its deliveries. The events already written
 * are copied into their deliveries, then webhook_events goes.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    // The Standard Webhooks message id (webhook-id): the same on every attempt and replay of one event.
    t.string('messageId', 40).nullable();
    t.string('eventType', 40).nullable();
    // The exact body sent: {type, timestamp, data}.
    if (mysql) t.specificType('body', 'LONGTEXT').nullable();
    else t.text('body').nullable();
  });
  const of = (column: string) => knex('webhook_events').where('webhook_events.id', knex.ref('webhook_deliveries.eventId')).select(column);
  await knex('webhook_deliveries').update({ messageId: of('messageId'), eventType: of('type'), body: of('body') });
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropForeign(['eventId']);
  });
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('eventId');
  });
  await knex.schema.dropTable('webhook_events');
}

export async function down(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  await knex.schema.createTable('webhook_events', (t) => {
    mysqlTableOptions(knex, t);
    t.bigIncrements('id');
    t.string('messageId', 40).notNullable().unique();
    t.string('type', 40).notNullable();
    t.string('subjectKey', 60).nullable();
    if (mysql) t.specificType('body', 'LONGTEXT').notNullable();
    else t.text('body').notNullable();
    t.specificType('createdAt', mysql ? 'DATETIME(3)' : 'TEXT').notNullable();
  });
  // One event per message id, from its first delivery.
  await knex.raw(
    'INSERT INTO webhook_events (messageId, type, subjectKey, body, createdAt) ' +
      'SELECT d.messageId, d.eventType, d.subjectKey, d.body, d.createdAt FROM webhook_deliveries d ' +
      'WHERE d.id = (SELECT MIN(f.id) FROM webhook_deliveries f WHERE f.messageId = d.messageId) ORDER BY d.id',
  );
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.bigInteger('eventId').unsigned().nullable().references('id').inTable('webhook_events').onDelete('CASCADE');
  });
  await knex('webhook_deliveries').update({
    eventId: knex('webhook_events').where('webhook_events.messageId', knex.ref('webhook_deliveries.messageId')).select('id'),
  });
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('body');
    t.dropColumn('eventType');
    t.dropColumn('messageId');
  });
}

import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * Webhooks (issue 32): the endpoints an admin adds, the outbox of events written in the same transaction as the
 * change that made them (so a rolled-back change sends nothing), and one delivery row per event and endpoint,
 * which is both the delivery job's state and the delivery log the settings page shows.
 */
export async function up(knex: Knex): Promise<void> {
  const instant = isMysql(knex) ? 'DATETIME(3)' : 'TEXT';
  await knex.schema.createTable('webhook_endpoints', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id').primary();
    t.string('url', 2000).notNullable();
    // JSON list of event types (or ['*']).
    t.text('events').notNullable();
    // Needed in the clear to sign each delivery: `whsec_` + base64 of random bytes.
    t.string('secret', 120).notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.string('disabledReason', 300).nullable();
    t.specificType('failingSince', instant).nullable();
    t.integer('createdBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.specificType('createdAt', instant).notNullable();
    t.specificType('updatedAt', instant).notNullable();
  });
  await knex.schema.createTable('webhook_events', (t) => {
    mysqlTableOptions(knex, t);
    t.bigIncrements('id');
    // The Standard Webhooks message id (webhook-id), the same on every attempt and replay.
    t.string('messageId', 40).notNullable().unique();
    t.string('type', 40).notNullable();
    // What the event is about ("event:12", "contact:4"): deliveries of one subject to one endpoint keep their order.
    t.string('subjectKey', 60).nullable();
    // The exact body sent: {type, timestamp, data}.
    if (isMysql(knex)) t.specificType('body', 'LONGTEXT').notNullable();
    else t.text('body').notNullable();
    t.specificType('createdAt', instant).notNullable();
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    mysqlTableOptions(knex, t);
    t.bigIncrements('id');
    t.integer('endpointId').unsigned().notNullable().references('id').inTable('webhook_endpoints').onDelete('CASCADE');
    t.bigInteger('eventId').unsigned().notNullable().references('id').inTable('webhook_events').onDelete('CASCADE');
    t.string('subjectKey', 60).nullable();
    // pending (waiting for its first try or a retry), sending, delivered, failed (gave up).
    t.string('state', 12).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.specificType('nextAttemptAt', instant).nullable();
    t.specificType('leaseUntil', instant).nullable();
    t.integer('responseStatus').nullable();
    t.string('responseBody', 1024).nullable();
    t.string('error', 300).nullable();
    t.integer('durationMs').nullable();
    t.specificType('createdAt', instant).notNullable();
    t.specificType('updatedAt', instant).notNullable();
    t.specificType('deliveredAt', instant).nullable();
    t.index(['endpointId', 'id']);
    t.index(['state', 'nextAttemptAt']);
    t.index(['endpointId', 'subjectKey', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_events');
  await knex.schema.dropTableIfExists('webhook_endpoints');
}

import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * jobs: one row per background job (import, sync, newsletter push) with its state, progress, result and lease, so
 * the screens, the CLI and every process read the same record whether the job ran in Redis workers or in the
 * server. job_inputs: the bytes of an uploaded import file in chunks, so a worker on another machine can read them.
 * schedule_ticks: one row per schedule tick taken, so a tick runs exactly once across processes.
 */
export async function up(knex: Knex): Promise<void> {
  const instant = isMysql(knex) ? 'DATETIME(3)' : 'TEXT';
  await knex.schema.createTable('jobs', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id').primary();
    t.string('type', 20).notNullable();
    t.string('state', 12).notNullable();
    t.json('params').notNullable();
    t.string('trigger', 12).notNullable();
    t.integer('startedBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    // Set while the job is queued or running for jobs that must not overlap (one sync of a kind); unique, so a
    // second one is refused by the database itself, across processes.
    t.string('activeKey', 100).nullable().unique();
    t.integer('progressDone').notNullable().defaultTo(0);
    t.integer('progressTotal').nullable();
    t.string('phase', 100).nullable();
    t.json('result').nullable();
    t.json('error').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.boolean('cancelRequested').notNullable().defaultTo(false);
    t.string('leaseOwner', 100).nullable();
    t.specificType('leaseExpiresAt', instant).nullable();
    t.specificType('runAfter', instant).nullable();
    t.specificType('createdAt', instant).notNullable();
    t.specificType('startedAt', instant).nullable();
    t.specificType('finishedAt', instant).nullable();
    t.specificType('updatedAt', instant).notNullable();
    t.index(['state', 'type']);
    t.index(['type', 'id']);
  });
  await knex.schema.createTable('job_inputs', (t) => {
    mysqlTableOptions(knex, t);
    t.integer('jobId').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.binary('bytes').notNullable();
    t.primary(['jobId', 'seq']);
  });
  await knex.schema.createTable('schedule_ticks', (t) => {
    mysqlTableOptions(knex, t);
    t.string('name', 100).notNullable();
    t.specificType('tick', instant).notNullable();
    t.primary(['name', 'tick']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('schedule_ticks');
  await knex.schema.dropTableIfExists('job_inputs');
  await knex.schema.dropTableIfExists('jobs');
}

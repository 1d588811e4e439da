import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * Notes, tasks, the notification bell and the daily task digest (issue 33; docs/decisions/0100). Notes and tasks
 * keep their owner as (entityType, entityId) like payments, with the author and times a timeline lists them by.
 * A record's search document now also holds its notes' words, so on MySQL it may outgrow TEXT (64 KB).
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  const datetime = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, mysql ? 'DATETIME(3)' : 'TEXT');
  const userRef = (t: Knex.CreateTableBuilder, name: string) =>
    t.integer(name).unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');

  await knex.schema.createTable('notes', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('entityType', 20).notNullable();
    t.integer('entityId').unsigned().notNullable();
    if (mysql) t.specificType('body', 'MEDIUMTEXT').notNullable();
    else t.text('body').notNullable();
    t.boolean('pinned').notNullable().defaultTo(false);
    userRef(t, 'createdBy');
    datetime(t, 'createdAt').notNullable();
    datetime(t, 'updatedAt').notNullable();
    // Set when the body was changed after it was written (the "edited" mark); pinning is not an edit.
    datetime(t, 'editedAt').nullable();
    t.index(['entityType', 'entityId', 'createdAt'], 'notes_owner_created');
    t.index(['createdAt'], 'notes_created');
  });

  await knex.schema.createTable('note_mentions', (t) => {
    mysqlTableOptions(knex, t);
    t.integer('noteId').unsigned().notNullable().references('id').inTable('notes').onDelete('CASCADE');
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.primary(['noteId', 'userId']);
    t.index(['userId']);
  });

  await knex.schema.createTable('tasks', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('title', 200).notNullable();
    t.text('notes').nullable();
    t.date('dueDate').notNullable();
    // 'HH:MM' in the organisation's time zone, or '' for a task due some time that day (sorts first).
    t.string('dueTime', 5).notNullable().defaultTo('');
    t.integer('assigneeId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('entityType', 20).nullable();
    t.integer('entityId').unsigned().nullable();
    t.boolean('done').notNullable().defaultTo(false);
    datetime(t, 'doneAt').nullable();
    userRef(t, 'doneBy');
    userRef(t, 'createdBy');
    datetime(t, 'createdAt').notNullable();
    datetime(t, 'updatedAt').notNullable();
    // My tasks and the digest: one user's open (or done) tasks in due order.
    t.index(['assigneeId', 'done', 'dueDate', 'dueTime', 'id'], 'tasks_assignee_due');
    t.index(['assigneeId', 'done', 'doneAt', 'id'], 'tasks_assignee_done');
    t.index(['entityType', 'entityId', 'createdAt'], 'tasks_owner_created');
    t.index(['done', 'dueDate'], 'tasks_open_due');
  });

  await knex.schema.createTable('notifications', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    // 'mention', 'assignment' or 'due'.
    t.string('kind', 20).notNullable();
    userRef(t, 'actorId');
    t.integer('noteId').unsigned().nullable();
    t.integer('taskId').unsigned().nullable();
    t.string('entityType', 20).nullable();
    t.integer('entityId').unsigned().nullable();
    t.string('text', 500).notNullable();
    datetime(t, 'createdAt').notNullable();
    datetime(t, 'readAt').nullable();
    t.index(['userId', 'readAt', 'id'], 'notifications_user_unread');
    t.index(['userId', 'id'], 'notifications_user');
  });

  // One row per user and local day the digest went to (or is going to): sending twice a day is refused by the key.
  await knex.schema.createTable('task_digests', (t) => {
    mysqlTableOptions(knex, t);
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('digestDate', 10).notNullable();
    t.integer('tasks').unsigned().notNullable().defaultTo(0);
    datetime(t, 'sentAt').notNullable();
    t.primary(['userId', 'digestDate']);
  });

  if (mysql) await knex.raw('ALTER TABLE ?? MODIFY ?? MEDIUMTEXT COLLATE utf8mb4_bin NOT NULL', ['record_search_docs', 'text']);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['task_digests', 'notifications', 'tasks', 'note_mentions', 'notes']) await knex.schema.dropTableIfExists(table);
}

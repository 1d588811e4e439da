import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * Passkeys (issue 35 point 2, docs/decisions/0104).
 * - user_second_factors gains the columns of a passkey row (kind 'passkey', named by the user): the credential's id
 *   (base64url, unique over all users: it is how an assertion finds its user), its COSE public key (base64url), the
 *   authenticator's signature counter and the transports it said it supports.
 * - webauthn_challenges: each challenge handed to a browser, until it is used (once) or expires. purpose is
 *   'register' (bound to the user adding a passkey) or 'sign_in' (no user yet: the passkey says who it is).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_second_factors', (t) => {
    t.string('credentialId', 255).nullable();
    t.text('publicKey').nullable();
    t.bigInteger('signCount').nullable();
    t.string('transports', 200).nullable();
    t.unique(['credentialId']);
  });

  await knex.schema.createTable('webauthn_challenges', (t) => {
    mysqlTableOptions(knex, t);
    t.string('challenge', 128).primary();
    t.string('purpose', 16).notNullable();
    t.integer('userId').unsigned().nullable().references('id').inTable('users').onDelete('CASCADE');
    t.specificType('expiresAt', isMysql(knex) ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.index(['expiresAt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webauthn_challenges');
  await knex.schema.alterTable('user_second_factors', (t) => {
    t.dropUnique(['credentialId']);
    t.dropColumn('transports');
    t.dropColumn('signCount');
    t.dropColumn('publicKey');
    t.dropColumn('credentialId');
  });
}

import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

export async function preferenceRows(db: Db, userId: number): Promise<Array<{ name: string; value: string }>> {
  return (await db('user_preferences').where({ userId }).select('name', 'value')) as Array<{ name: string; value: string }>;
}

export async function upsertPreference(db: Db, row: { userId: number; name: string; value: string; updatedAt: string }): Promise<void> {
  await db('user_preferences').insert(row).onConflict(['userId', 'name']).merge(['value', 'updatedAt']);
}

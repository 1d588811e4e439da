import type { Knex } from 'knex';
import { testDialect } from './db.js';

/**
 * Makes the database itself refuse to delete one row of `table` (a trigger), so a test can fail a transaction
 * part-way, after other rows were already deleted in it. Returns the function that removes the trigger.
 */
export async function failDeleteOf(db: Knex, table: string, id: number): Promise<() => Promise<void>> {
  const name = `test_fail_delete_${table}`;
  // A trigger's body takes no bindings; the id is a number, and the names are identifiers quoted by knex.
  const rowId = String(Math.trunc(id));
  const body =
    testDialect === 'sqlite'
      ? ' WHEN OLD.id = ' + rowId + " BEGIN SELECT RAISE(ABORT, 'refused by test'); END"
      : ' FOR EACH ROW BEGIN IF OLD.id = ' + rowId + " THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by test'; END IF; END";
  await db.raw('CREATE TRIGGER ?? BEFORE DELETE ON ??' + body, [name, table]);
  return async () => {
    await db.raw('DROP TRIGGER ??', [name]);
  };
}

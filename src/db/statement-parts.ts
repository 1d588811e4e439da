import type { Knex } from 'knex';

type RawRow = Record<string, unknown>;

/**
 * One read of several that a page sends together as one statement (`readParts`): its query, the columns it
 * selects (by name, as its rows carry them), and how its rows become the value the caller wants. The rows reach
 * `decode` in no particular order: a part whose order matters sorts them there.
 */
export interface StatementPart<T> {
  query: Knex.QueryBuilder;
  columns: readonly string[];
  decode: (rows: RawRow[]) => T;
}

/** One part read on its own, as its own statement. */
export async function readPart<T>(part: StatementPart<T>): Promise<T> {
  return part.decode((await part.query) as RawRow[]);
}

type Values<Parts extends readonly StatementPart<unknown>[]> = {
  -readonly [K in keyof Parts]: Parts[K] extends StatementPart<infer T> ? T : never;
};

/**
 * Several parts in one statement, so one round trip (on a loaded machine each statement's socket write and reply
 * cost more than the small indexed reads themselves). Each part becomes a derived table in a UNION ALL; every
 * part has columns of its own in the union (NULL in the other parts' rows), so each column keeps the type its part
 * gives it on both dialects, and a `part` column says whose row it is. One exception: MariaDB types an unsigned
 * integer column against the other parts' NULLs as a decimal, which arrives as text; decode integers with Number()
 * (the 'integer' column kind).
 */
export async function readParts<Parts extends readonly StatementPart<unknown>[]>(db: Knex, parts: Parts): Promise<Values<Parts>> {
  const slots = parts.flatMap((part, index) => part.columns.map((column, position) => ({ index, column, name: `p${index}_${position}` })));
  const selects = parts.map((part, index) => {
    const { sql, bindings } = part.query.toSQL();
    const columns = slots.map((slot) => (slot.index === index ? '?? AS ??' : 'NULL AS ??'));
    const columnBindings = slots.flatMap((slot) => (slot.index === index ? [`part${index}.${slot.column}`, slot.name] : [slot.name]));
    return {
      sql: ['SELECT ? AS part, ', columns.join(', '), ' FROM (', sql, ') AS ??'].join(''),
      bindings: [index, ...columnBindings, ...bindings, `part${index}`] as Knex.RawBinding[],
    };
  });
  const union = ['(', selects.map((select) => select.sql).join(' UNION ALL '), ') AS ??'].join('');
  const rows = (await db.select('*').from(db.raw(union, [...selects.flatMap((select) => select.bindings), 'parts']))) as RawRow[];
  const rowsByPart = parts.map((): RawRow[] => []);
  const ownSlots = parts.map((_, index) => slots.filter((slot) => slot.index === index));
  for (const row of rows) {
    const index = Number(row.part);
    rowsByPart[index]!.push(Object.fromEntries(ownSlots[index]!.map((slot) => [slot.column, row[slot.name]])));
  }
  return parts.map((part, index) => part.decode(rowsByPart[index]!)) as Values<Parts>;
}

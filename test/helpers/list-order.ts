import type { Knex } from 'knex';
import { expect } from 'vitest';
import { explainPlan, type SentStatement } from './db.js';

/** A list row as the API answers it. */
export type ListItem = Record<string, unknown> & { id: number };

/** Null first, numbers (money and counts arrive as text or numbers) as numbers, text as text. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'number' || /^-?\d+(\.\d+)?$/.test(String(a))) return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : 1;
}

/** The values a sort orders by: none for newest (id only), last then first name for name, else the column. */
const keyValues = (sort: string, item: ListItem): unknown[] =>
  sort === 'newest' ? [] : sort === 'name' ? [item.lastName, item.firstName] : [item[sort]];

/** The ids of `items` in the order a list sorted by `sort` and `dir` must give them, ties broken by id the same way. */
export function expectedOrder(sort: string, dir: 'asc' | 'desc', items: ListItem[]): number[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...items]
    .sort((a, b) => {
      const [va, vb] = [keyValues(sort, a), keyValues(sort, b)];
      for (let i = 0; i < va.length; i++) {
        const c = compareValues(va[i], vb[i]);
        if (c !== 0) return sign * c;
      }
      return sign * (a.id - b.id);
    })
    .map((item) => item.id);
}

/**
 * Fails unless every statement of `statements` that orders its rows reads them in index order: no filesort, no
 * temporary table or B-tree, no unordered full scan (a full read is only ever the primary key's, newest first).
 */
export async function expectOrderedByIndex(db: Knex, statements: readonly SentStatement[], label: string): Promise<void> {
  const ordered = statements.filter((s) => /order by/i.test(s.sql));
  expect(ordered.length, label).toBeGreaterThan(0);
  for (const statement of ordered) {
    const plan = (await explainPlan(db, statement)).join('\n');
    const explained = `${label}\n${statement.sql}\n${JSON.stringify(statement.bindings)}\n${plan}`;
    expect(plan, explained).not.toMatch(/TEMP B-TREE|filesort|Using temporary/i);
    expect(plan, explained).not.toMatch(/type=ALL/);
  }
}

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

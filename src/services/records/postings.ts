/**
 * Packed trigram postings (docs/decisions/0085-packed-postings.md): record_search_grams holds one row per (kind,
 * gram, block of 256 record ids), and its `ids` column says which ids of the block contain the gram. A few ids are
 * stored as their offsets in the block, one byte each, ascending; from 32 on, as a 256-bit bitmap (32 bytes), so a
 * value's length alone tells the two apart. A common gram then costs a row per 256 records instead of one per record.
 */

const BLOCK_SHIFT = 8;
const BLOCK_SIZE = 1 << BLOCK_SHIFT;
/** The bitmap's size in bytes; shorter values are offset lists. */
const BITMAP_BYTES = BLOCK_SIZE / 8;

/** The block a record id falls in (ids are unsigned 32-bit). */
export const blockOf = (id: number) => id >>> BLOCK_SHIFT;
const offsetOf = (id: number) => id & (BLOCK_SIZE - 1);

/** The stored value of a block's ids: ascending, distinct, all in that block (`count` of them from the start). */
export function encodeBlock(ids: ArrayLike<number>, count = ids.length): Buffer {
  if (count < BITMAP_BYTES) {
    const list = Buffer.allocUnsafe(count);
    for (let i = 0; i < count; i++) list[i] = offsetOf(ids[i]!);
    return list;
  }
  const bitmap = Buffer.alloc(BITMAP_BYTES);
  for (let i = 0; i < count; i++) {
    const offset = offsetOf(ids[i]!);
    bitmap[offset >> 3]! |= 1 << (offset & 7);
  }
  return bitmap;
}

/** Appends the ids a stored value holds, ascending, to `out`. */
export function decodeBlock(block: number, value: Uint8Array, out: number[]): void {
  const base = block * BLOCK_SIZE;
  if (value.length < BITMAP_BYTES) {
    for (const offset of value) out.push(base + offset);
    return;
  }
  for (let byte = 0; byte < BITMAP_BYTES; byte++) {
    let bits = value[byte]!;
    while (bits !== 0) {
      const lowest = bits & -bits;
      out.push(base + byte * 8 + (31 - Math.clz32(lowest)));
      bits ^= lowest;
    }
  }
}

/** A row of record_search_grams: kind, gram, block, ids. */
export type PostingRow = [kind: number, gram: number, block: number, ids: Buffer];

/**
 * The rows of one gram's ids (ascending): one per block they fall in. `ids` may be a longer array, of which
 * [start, end) are the gram's.
 */
export function* blockRows(kind: number, gram: number, ids: ArrayLike<number>, start = 0, end = ids.length): Generator<PostingRow> {
  let first = start;
  while (first < end) {
    const block = blockOf(ids[first]!);
    let last = first + 1;
    while (last < end && blockOf(ids[last]!) === block) last++;
    yield [kind, gram, block, encodeBlock(slice(ids, first, last), last - first)];
    first = last;
  }
}

const slice = (ids: ArrayLike<number>, from: number, to: number): ArrayLike<number> =>
  ids instanceof Uint32Array ? ids.subarray(from, to) : Array.prototype.slice.call(ids, from, to);

/**
 * The postings a write adds and removes, by block and gram: what one reindex call changes, applied to the stored rows
 * of those (gram, block) keys only.
 */
export class PostingChanges {
  private readonly byKey = new Map<string, { gram: number; block: number; add: number[]; remove: number[] }>();

  add(id: number, grams: readonly number[]) {
    for (const gram of grams) this.entry(gram, id).add.push(id);
  }

  remove(id: number, grams: readonly number[]) {
    for (const gram of grams) this.entry(gram, id).remove.push(id);
  }

  private entry(gram: number, id: number) {
    const block = blockOf(id);
    const key = `${gram}:${block}`;
    let entry = this.byKey.get(key);
    if (!entry) this.byKey.set(key, (entry = { gram, block, add: [], remove: [] }));
    return entry;
  }

  get size() {
    return this.byKey.size;
  }

  /** The changed keys, in primary-key order (gram, then block), so writers lock them in one order. */
  keys(): Array<{ gram: number; block: number; add: readonly number[]; remove: readonly number[] }> {
    return [...this.byKey.values()].sort((a, b) => a.gram - b.gram || a.block - b.block);
  }
}

/** A block's ids after a change: the stored ones (if any) without `remove`, with `add`; ascending. */
export function changedBlock(block: number, stored: Uint8Array | undefined, add: readonly number[], remove: readonly number[]): number[] {
  const ids = new Set<number>();
  if (stored) {
    const existing: number[] = [];
    decodeBlock(block, stored, existing);
    for (const id of existing) ids.add(id);
  }
  for (const id of remove) ids.delete(id);
  for (const id of add) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

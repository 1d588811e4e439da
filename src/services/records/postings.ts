/**
 * Packed trigram postings (docs/decisions/0085-packed-postings.md): record_search_grams holds one row per (kind,
 * gram, block of 256 record ids), and its `ids` column says which ids of the block contain the gram. A few ids are
 * stored as their offsets in the block, one byte each, ascending; from 32 on, as a 256-bit bitmap (32 bytes), so a
 * value's length alone tells the two apart. A common gram then costs a row per 256 records instead of one per record.
 */

const BLOCK_SHIFT = 8;
const BLOCK_SIZE = 1 << BLOCK_SHIFT;
/** The bitmap's size in bytes; shorter values are offset lists. */
export const BITMAP_BYTES = BLOCK_SIZE / 8;

/** The block a record id falls in (ids are unsigned 32-bit). */
export const blockOf = (id: number) => id >>> BLOCK_SHIFT;
const offsetOf = (id: number) => id & (BLOCK_SIZE - 1);

/** The stored value of a block's ids: ascending, distinct, all in that block. */
export function encodeBlock(ids: ArrayLike<number>): Buffer {
  if (ids.length < BITMAP_BYTES) {
    const list = Buffer.allocUnsafe(ids.length);
    for (let i = 0; i < ids.length; i++) list[i] = offsetOf(ids[i]!);
    return list;
  }
  // From Node's shared pool, as the lists are: an import batch makes thousands of these.
  const bitmap = Buffer.allocUnsafe(BITMAP_BYTES).fill(0);
  for (let i = 0; i < ids.length; i++) {
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

/** A stored value (offset list or bitmap) as a bitmap, written into `into` (BITMAP_BYTES long). */
export function asBitmap(value: Uint8Array, into: Uint8Array): void {
  if (value.length === BITMAP_BYTES) {
    into.set(value);
    return;
  }
  into.fill(0);
  for (const offset of value) into[offset >> 3]! |= 1 << (offset & 7);
}

/** A row of record_search_grams: kind, gram, block, ids. */
export type PostingRow = [kind: number, gram: number, block: number, ids: Buffer];

/**
 * The rows of one gram's ids (ascending): one per block they fall in. `ids` may be a longer array, of which
 * [start, end) are the gram's.
 */
export function* blockRows(kind: number, gram: number, ids: Uint32Array, start = 0, end = ids.length): Generator<PostingRow> {
  let first = start;
  while (first < end) {
    const block = blockOf(ids[first]!);
    let last = first + 1;
    while (last < end && blockOf(ids[last]!) === block) last++;
    yield [kind, gram, block, encodeBlock(ids.subarray(first, last))];
    first = last;
  }
}

/** What a write changes in one (gram, block) key: ids added and removed, each ascending. */
export interface KeyChange {
  gram: number;
  block: number;
  add: ArrayLike<number>;
  remove: ArrayLike<number>;
}

const NONE = new Uint32Array(0);

/**
 * The postings a write adds and removes, collected as records are compared in ascending id order: what one reindex
 * call changes, applied to the stored rows of those (gram, block) keys only.
 */
export class PostingChanges {
  private readonly added: PostingCollector;
  private readonly removed = new PostingCollector(1024);

  /** `expected`: the postings likely added (the arrays grow past it as needed). */
  constructor(expected: number) {
    this.added = new PostingCollector(expected);
  }

  add(id: number, grams: readonly number[]) {
    this.added.add(id, grams);
  }

  remove(id: number, grams: readonly number[]) {
    this.removed.add(id, grams);
  }

  get size() {
    return this.added.length + this.removed.length;
  }

  /** The changed keys, in primary-key order (gram, then block), so writers lock them in one order. */
  keys(): KeyChange[] {
    const added = this.added.sorted();
    const removed = this.removed.sorted();
    const out: KeyChange[] = [];
    const runOf = (sorted: SortedPostings, rank: number) => sorted.ids.subarray(sorted.start[rank], sorted.start[rank + 1]);
    for (let a = 0, r = 0; a < added.grams.length || r < removed.grams.length;) {
      const gram = Math.min(added.grams[a] ?? Infinity, removed.grams[r] ?? Infinity);
      const adds = added.grams[a] === gram ? runOf(added, a++) : NONE;
      const removes = removed.grams[r] === gram ? runOf(removed, r++) : NONE;
      for (let i = 0, j = 0; i < adds.length || j < removes.length;) {
        const block = Math.min(i < adds.length ? blockOf(adds[i]!) : Infinity, j < removes.length ? blockOf(removes[j]!) : Infinity);
        const addsFrom = i;
        const removesFrom = j;
        while (i < adds.length && blockOf(adds[i]!) === block) i++;
        while (j < removes.length && blockOf(removes[j]!) === block) j++;
        out.push({
          gram,
          block,
          add: i > addsFrom ? adds.subarray(addsFrom, i) : NONE,
          remove: j > removesFrom ? removes.subarray(removesFrom, j) : NONE,
        });
      }
    }
    return out;
  }
}

/** A block's ids after a change: the stored ones (if any) without `remove`, with `add`; ascending. */
export function changedBlock(block: number, stored: Uint8Array | undefined, add: ArrayLike<number>, remove: ArrayLike<number>): number[] {
  const ids = new Set<number>();
  if (stored) {
    const existing: number[] = [];
    decodeBlock(block, stored, existing);
    for (const id of existing) ids.add(id);
  }
  for (let i = 0; i < remove.length; i++) ids.delete(remove[i]!);
  for (let i = 0; i < add.length; i++) ids.add(add[i]!);
  return [...ids].sort((a, b) => a - b);
}

/** A type's postings in primary-key order: for each gram ascending, its blocks ascending. */
export interface SortedPostings {
  /** How many rows `rows` gives. */
  readonly rowCount: number;
  /** The rows of record_search_grams: kind, gram, block, ids. */
  rows(code: number): Iterable<PostingRow>;
  /** The grams, ascending; the ids of grams[i] are ids[start[i]] up to ids[start[i + 1]], ascending. */
  grams: readonly number[];
  start: Uint32Array;
  ids: Uint32Array;
}

/**
 * Collects postings as records are read in id order, in typed arrays (a million events make some 100 million), and
 * sorts them by gram with a counting sort: within a gram the ids stay in the order read, which must be ascending.
 * A posting keeps only its gram's slot (4 bytes); its record id is the record's whose run of postings it falls in,
 * kept once per record, so a rebuild holds 4 bytes a posting while reading and 8 while sorting (ADR 0061).
 */
export class PostingCollector {
  private readonly slotOfGram = new Map<number, number>();
  private readonly grams: number[] = [];
  private readonly perSlot: number[] = [];
  private slots: Uint32Array;
  /** Per record added: its id, and where its postings end in `slots`. */
  private recordIds = new Uint32Array(1024);
  private recordEnds = new Uint32Array(1024);
  private records = 0;
  length = 0;

  /** `capacity`: the postings expected (the arrays grow past it as needed). */
  constructor(capacity = 1 << 20) {
    this.slots = new Uint32Array(Math.max(capacity, 1024));
  }

  add(recordId: number, grams: readonly number[]) {
    if (grams.length === 0) return;
    if (this.length + grams.length > this.slots.length) this.slots = grown(this.slots, this.length, this.length + grams.length);
    if (this.records === this.recordIds.length) {
      this.recordIds = grown(this.recordIds, this.records, this.records + 1);
      this.recordEnds = grown(this.recordEnds, this.records, this.records + 1);
    }
    for (const gram of grams) {
      let slot = this.slotOfGram.get(gram);
      if (slot === undefined) {
        slot = this.grams.length;
        this.slotOfGram.set(gram, slot);
        this.grams.push(gram);
        this.perSlot.push(0);
      }
      this.perSlot[slot]! += 1;
      this.slots[this.length++] = slot;
    }
    this.recordIds[this.records] = recordId;
    this.recordEnds[this.records++] = this.length;
  }

  sorted(): SortedPostings {
    const order = this.grams.map((_, slot) => slot).sort((a, b) => this.grams[a]! - this.grams[b]!);
    const start = new Uint32Array(this.grams.length + 1);
    const next = new Uint32Array(this.grams.length);
    order.forEach((slot, rank) => {
      start[rank + 1] = start[rank]! + this.perSlot[slot]!;
      next[slot] = start[rank]!;
    });
    const ids = new Uint32Array(this.length);
    for (let record = 0, i = 0; record < this.records; record++) {
      const id = this.recordIds[record]!;
      for (const end = this.recordEnds[record]!; i < end; i++) ids[next[this.slots[i]!]!++] = id;
    }
    const gramsInOrder = order.map((slot) => this.grams[slot]!);
    let rowCount: number | undefined;
    return {
      grams: gramsInOrder,
      start,
      ids,
      get rowCount() {
        // Counted once, on first use: a gram's ids are ascending, so each block's are consecutive, and a row starts
        // wherever the block changes.
        if (rowCount === undefined) {
          rowCount = 0;
          for (let rank = 0; rank < gramsInOrder.length; rank++) {
            for (let i = start[rank]!; i < start[rank + 1]!; i++) {
              if (i === start[rank] || blockOf(ids[i]!) !== blockOf(ids[i - 1]!)) rowCount++;
            }
          }
        }
        return rowCount;
      },
      *rows(code) {
        for (let rank = 0; rank < gramsInOrder.length; rank++)
          yield* blockRows(code, gramsInOrder[rank]!, ids, start[rank], start[rank + 1]);
      },
    };
  }
}

/** A copy of the first `used` values of `array` in one at least `needed` long (doubling, so appends stay cheap). */
function grown(array: Uint32Array, used: number, needed: number): Uint32Array<ArrayBuffer> {
  const copy = new Uint32Array(Math.max(needed, array.length * 2));
  copy.set(array.subarray(0, used));
  return copy;
}

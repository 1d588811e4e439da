import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockOf,
  blockRows,
  changedBlock,
  decodeBlock,
  encodeBlock,
  PostingChanges,
  PostingCollector,
} from '@services/records/postings.js';

const idsOfBlock = (block: number) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 256 })
    .map((offsets) => offsets.sort((a, b) => a - b).map((offset) => block * 256 + offset));

describe('packed postings', () => {
  it('give back exactly the ids they were made of, as an offset list below 32 ids and a bitmap from 32 on', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 24 - 1 }).chain((block) => fc.tuple(fc.constant(block), idsOfBlock(block))),
        ([block, ids]) => {
          const value = encodeBlock(ids);
          expect(value.length).toBe(ids.length < 32 ? ids.length : 32);
          const decoded: number[] = [];
          decodeBlock(block, value, decoded);
          expect(decoded).toEqual(ids);
        },
      ),
    );
  });

  it('split a gram ascending ids into one row per block of 256, ids up to 2^32 - 1', () => {
    const ids = [1, 255, 256, 300, 2 ** 32 - 2, 2 ** 32 - 1];
    const rows = [...blockRows(7, 99, Uint32Array.from(ids))];
    expect(rows.map(([kind, gram, block]) => [kind, gram, block])).toEqual([
      [7, 99, 0],
      [7, 99, 1],
      [7, 99, 2 ** 24 - 1],
    ]);
    const decoded: number[] = [];
    for (const [, , block, value] of rows) decodeBlock(block, value, decoded);
    expect(decoded).toEqual(ids);
    expect(blockOf(2 ** 32 - 1)).toBe(2 ** 24 - 1);
  });

  it("collect a rebuild's postings past their first capacity: each gram's rows, grams and ids ascending", () => {
    fc.assert(
      fc.property(
        // Records in ascending id order (as a rebuild reads them), each with its distinct grams; some with none.
        fc.array(fc.tuple(fc.integer({ min: 1, max: 700 }), fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 })), {
          maxLength: 3000,
        }),
        (records) => {
          const collector = new PostingCollector(16);
          const idsOfGram = new Map<number, number[]>();
          let id = 0;
          for (const [gap, grams] of records) {
            id += gap;
            collector.add(id, grams);
            for (const gram of grams) idsOfGram.set(gram, [...(idsOfGram.get(gram) ?? []), id]);
          }
          const expected = [...idsOfGram]
            .sort(([a], [b]) => a - b)
            .flatMap(([gram, ids]) => [...blockRows(4, gram, Uint32Array.from(ids))]);
          const sorted = collector.sorted();
          expect([...sorted.rows(4)]).toEqual(expected);
          expect(sorted.rowCount).toBe(expected.length);
          expect(collector.length).toBe(records.reduce((sum, [, grams]) => sum + grams.length, 0));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('apply a write: removals and additions per (gram, block), in key order', () => {
    const changes = new PostingChanges(16);
    // Records come in ascending id order, as a reindex compares them.
    changes.add(10, [5]);
    changes.remove(11, [5]);
    changes.add(600, [5, 3]);
    expect(
      changes.keys().map(({ gram, block, add, remove }) => ({ gram, block, add: Array.from(add), remove: Array.from(remove) })),
    ).toEqual([
      { gram: 3, block: 2, add: [600], remove: [] },
      { gram: 5, block: 0, add: [10], remove: [11] },
      { gram: 5, block: 2, add: [600], remove: [] },
    ]);
    const full = Array.from({ length: 40 }, (_, i) => i);
    // A bitmap that drops under 32 ids comes back as a list, and one that loses its last id is empty.
    const smaller = changedBlock(0, encodeBlock(full), [], full.slice(0, 10));
    expect(smaller).toEqual(full.slice(10));
    expect(encodeBlock(smaller).length).toBe(30);
    expect(changedBlock(0, encodeBlock([4]), [], [4])).toEqual([]);
    expect(changedBlock(1, undefined, [300, 256], [])).toEqual([256, 300]);
  });
});

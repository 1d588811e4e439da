import { describe, expect, it } from 'vitest';
import type { SourceRow } from '@shared/imports/csv-records.js';
import { JsonRowsReader, type RowsContainer } from '@services/imports/json-rows.js';

/** Reads a body as the job does: a first pass for the header and lines, then the rows, the bytes cut every `step`. */
function readBack(text: string, container: RowsContainer, step: number) {
  const bytes = Buffer.from(text);
  const feed = (reader: JsonRowsReader, each?: () => void) => {
    for (let at = 0; at < bytes.length; at += step) {
      reader.write(bytes.subarray(at, at + step));
      each?.();
    }
    reader.end();
    each?.();
  };
  const first = new JsonRowsReader(container);
  feed(first);
  first.checkRows('brands', []);
  const second = new JsonRowsReader(container, { lines: first.linesSent() });
  const rows: SourceRow[] = [];
  feed(second, () => rows.push(...second.takeRows()));
  return { header: first.header, rows, fields: first.fields };
}

describe('JSON rows read back from a stored body', () => {
  const data = [
    { Brand: 'Café "Ö"', 'First Name': 'Ann', Count: 12, Member: true, Note: null },
    { Brand: 'Line\nbreak', Extra: 'x', 'First Name': 'Ben' },
  ];

  it('gives the rows, their lines and the header as the whole body parsed would, however it is cut', () => {
    for (const step of [1, 7, 64, 100_000]) {
      const body = readBack(JSON.stringify({ lines: [4, 9], data }), 'body', step);
      expect(body.header).toEqual(['Brand', 'First Name', 'Count', 'Member', 'Note', 'Extra']);
      expect(body.rows.map((row) => ({ line: row.line, values: { ...row.values } }))).toEqual([
        { line: 4, values: { Brand: 'Café "Ö"', 'First Name': 'Ann', Count: '12', Member: 'true', Note: '' } },
        { line: 9, values: { Brand: 'Line\nbreak', Extra: 'x', 'First Name': 'Ben' } },
      ]);
    }
  });

  it('finds the rows in a job request’s params, and numbers them from line 2 without lines', () => {
    const job = readBack(JSON.stringify({ params: { data, kind: 'brands', dryRun: true }, type: 'import' }), 'params', 5);
    expect(job.rows.map((row) => row.line)).toEqual([2, 3]);
    expect({ ...job.fields, params: { ...(job.fields.params as object) } }).toEqual({
      type: 'import',
      params: { kind: 'brands', dryRun: true },
    });
  });

  it('refuses what the endpoints refused, in their order', () => {
    const check = (body: unknown) => {
      const reader = new JsonRowsReader('body');
      reader.write(Buffer.from(JSON.stringify(body)));
      reader.end();
      try {
        reader.checkRows('brands', Object.keys(reader.fields));
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(check({ data: [{ Brand: 'x' }], extra: 1 })).toBe('Unknown field(s): extra');
    expect(check({ data: [] })).toBe('Please enter CSV data');
    expect(check({ data: 'rows' })).toBe('data must be a list of rows');
    expect(check({ data: [{ Brand: 'x' }, 3], lines: [2] })).toBe('lines must give one line number (above 1) per row');
    expect(check({ data: [{ Brand: 'x' }, 3] })).toBe('Row 2 is not an object keyed by the CSV header');
    expect(check({ data: [{ Brand: ['x'] }, 3] })).toBe('Row 1: Brand must be text');
    expect(check({ data: [{ Brand: 'x' }, { Brand: 'a\uFFFDb' }], lines: [2, 40] })).toMatch(/^Line 40: contains \uFFFD/);
    expect(check({ data: [{ Brand: 'x' }] })).toBe('accepted');
  });
});

import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from '@services/records/csv-writer.js';

describe('CSV records of the exports (RFC 4180)', () => {
  it('quotes only a field with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('')).toBe('');
    expect(csvField('Shoes, Road')).toBe('"Shoes, Road"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvField('one\rtwo')).toBe('"one\rtwo"');
    expect(csvRecord(['a', 'b,c', ''])).toBe('a,"b,c",\r\n');
  });

  it('reads back as the same fields with a CSV parser, whatever the fields hold', () => {
    const fieldText = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\r', '\n', 'é', '😀', ';', "'"), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.array(fieldText, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (records) => {
        const width = records[0]!.length;
        const rows = records.map((fields) => fields.concat(Array<string>(width).fill('')).slice(0, width));
        const text = rows.map(csvRecord).join('');
        expect(parse(text, { relax_column_count: false, record_delimiter: '\r\n' })).toEqual(rows);
      }),
      { numRuns: 500 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OVERFLOW_KEY } from '@shared/imports/csv-records.js';
import { sourceFromText } from '@services/imports/csv-source.js';
import { normaliseWebsite, planBrandRow, planEventRow } from '@services/imports/row-plans.js';
import {
  brandKey,
  headerKey,
  isDroppedRow,
  isEmailAddress,
  namesFromEmail,
  resolveColumns,
  splitEmails,
  splitFullName,
  tidyBrandName,
} from '@shared/imports/rules.js';
import { parseImportCsv } from '@views/pages/imports/parse-csv.js';

const rowsOf = (kind: 'events' | 'brands', text: string) =>
  [...(sourceFromText(kind, text).chunks as Iterable<ReadonlyArray<{ line: number; values: Record<string, string> }>>)].flat();

describe('CSV parsing (RFC 4180 through csv-parse)', () => {
  it('keeps quoted commas, doubled quotes and line breaks inside one cell, and numbers rows by the line they start on', () => {
    const text =
      '\uFEFFBrand,First Name,Last Name,Email\r\n"Fleet Feet, Inc.","Jo ""JJ""",Doe,"a@x.org"\r\n\r\n"Multi\r\nLine",A,B,b@x.org\r\nLast,C,D,c@x.org';
    const source = sourceFromText('brands', text);
    expect(source.header).toEqual(['Brand', 'First Name', 'Last Name', 'Email']);
    const rows = rowsOf('brands', text);
    expect(rows.map((row) => [row.line, { ...row.values }])).toEqual([
      [2, { Brand: 'Fleet Feet, Inc.', 'First Name': 'Jo "JJ"', 'Last Name': 'Doe', Email: 'a@x.org' }],
      [4, { Brand: 'Multi\r\nLine', 'First Name': 'A', 'Last Name': 'B', Email: 'b@x.org' }],
      [6, { Brand: 'Last', 'First Name': 'C', 'Last Name': 'D', Email: 'c@x.org' }],
    ]);
  });

  it('reads LF, CRLF and CR line endings alike', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const rows = rowsOf('events', ['event_id,website,Email', '1,a.org,a@a.org', '2,b.org,b@b.org'].join(eol) + eol);
      expect(rows.map((row) => [row.line, row.values.event_id])).toEqual([
        [2, '1'],
        [3, '2'],
      ]);
    }
  });

  it('marks rows with more non-empty cells than the header, and pads short ones', () => {
    const rows = rowsOf('brands', 'Brand,First Name,Last Name,Email\nFleet Feet, Inc.,Jane,Doe,j@x.org\nShort,A\nTrailing,A,B,c@x.org,,\n');
    expect(rows[0]!.values[OVERFLOW_KEY]).toBe('5');
    expect(rows[1]!.values).toMatchObject({ Brand: 'Short', 'First Name': 'A', 'Last Name': '', Email: '' });
    expect(rows[1]!.values[OVERFLOW_KEY]).toBeUndefined();
    expect(rows[2]!.values[OVERFLOW_KEY]).toBeUndefined();
  });

  it('the screens parse exactly like the server (same rows, same lines) for any mix of quoting and line endings', () => {
    const cell = fc.string({ maxLength: 12 }).map((s) => s.split(String.fromCharCode(0)).join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (records, eol) => {
        const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
        const text =
          ['event_id,website,Email', ...records.map((record, i) => [String(i + 1), ...record.slice(1)].map(quote).join(','))].join(eol) +
          eol;
        const server = rowsOf('events', text);
        const screen = parseImportCsv('events', text);
        if (!screen.ok) return false;
        expect(screen.rows.map((row) => [row.line, { ...row.values }])).toEqual(server.map((row) => [row.line, { ...row.values }]));
        expect(server.map((row) => row.values.website)).toEqual(records.map((record) => record[1]));
        return true;
      }),
      { numRuns: 100 },
    );
  });

  it('answers the spec messages for empty text, a header alone and broken quoting', () => {
    expect(() => sourceFromText('events', ' \n ')).toThrow('Please paste your CSV data');
    expect(() => sourceFromText('brands', '')).toThrow('Please enter CSV data');
    expect(() => sourceFromText('events', 'event_id,website,Email\n')).toThrow('CSV must have at least a header row and one data row');
    expect(() => sourceFromText('events', 'event_id,website,Email\n1,"x,y\n')).toThrow('Invalid CSV format');
    expect(() => sourceFromText('brands', 'Brand,Email\n"x,y\n')).toThrow('CSV parsing error');
  });
});

describe('columns', () => {
  it('matches header cells without case, spaces, underscores or dashes', () => {
    expect(headerKey('Event ID')).toBe(headerKey('event_id'));
    expect(headerKey('\uFEFFFirst-Name')).toBe('firstname');
    const resolved = resolveColumns('events', ['EVENT_ID', ' Website ', 'emails']);
    expect(resolved).toEqual({ ok: true, columns: { eventId: 'EVENT_ID', website: ' Website ', email: 'emails' } });
  });

  it('names the first missing required column, and the email column in the spec wording', () => {
    expect(resolveColumns('events', ['website', 'Email'])).toEqual({ ok: false, message: 'Missing required column: event_id' });
    expect(resolveColumns('events', ['event_id', 'website'])).toEqual({
      ok: false,
      message: 'Missing email column. Expected: Email or Emails',
    });
    expect(resolveColumns('brands', ['Brand', 'First Name', 'Email'])).toEqual({
      ok: false,
      message: 'Missing required column: Last Name',
    });
  });

  it('drops events rows without event_id and brands rows without Brand or Email', () => {
    const events = { eventId: 'event_id', website: 'website', email: 'Email' };
    expect(isDroppedRow('events', { event_id: '  ', website: 'x', Email: 'a@b.org' }, events)).toBe(true);
    expect(isDroppedRow('events', { event_id: '3', website: '', Email: '' }, events)).toBe(false);
    const brands = { brand: 'Brand', email: 'Email' };
    expect(isDroppedRow('brands', { Brand: 'X', Email: '' }, brands)).toBe(true);
    expect(isDroppedRow('brands', { Brand: '', Email: 'a@b.org' }, brands)).toBe(true);
    expect(isDroppedRow('brands', { Brand: 'X', Email: 'a@b.org' }, brands)).toBe(false);
  });
});

describe('addresses and names', () => {
  it('splits a cell on commas, semicolons and whitespace', () => {
    expect(splitEmails(' a@x.org, b@x.org;c@x.org  d@x.org\te@x.org\n f@x.org ;; ')).toEqual([
      'a@x.org',
      'b@x.org',
      'c@x.org',
      'd@x.org',
      'e@x.org',
      'f@x.org',
    ]);
    expect(splitEmails('')).toEqual([]);
  });

  it('accepts plain addresses and refuses the rest', () => {
    expect(isEmailAddress('jane.doe+runs@sub.example.co.uk')).toBe(true);
    for (const bad of ['jane', 'jane@', '@x.org', 'jane@localhost', 'a@b@c.org', '<a@b.org>', `${'a'.repeat(320)}@x.org`])
      expect(isEmailAddress(bad)).toBe(false);
  });

  it('derives names from the address as documented', () => {
    expect(namesFromEmail('jane.doe@x.org')).toEqual({ firstName: 'Jane', lastName: 'Doe' });
    expect(namesFromEmail('MARY-ANN.van.dyke@x.org')).toEqual({ firstName: 'Mary', lastName: 'Ann Van Dyke' });
    expect(namesFromEmail('info@parkrun.com.au')).toEqual({ firstName: 'Info', lastName: 'Parkrun' });
    expect(namesFromEmail('j_smith2024@gmail.com')).toEqual({ firstName: 'J', lastName: 'Smith' });
    expect(namesFromEmail('2024@club.org')).toEqual({ firstName: '2024', lastName: 'Club' });
  });

  it('always derives a non-empty first and last name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9._+-]{1,20}$/), fc.stringMatching(/^[a-z0-9-]{1,10}$/), (local, domain) => {
        const names = namesFromEmail(`${local}@${domain}.org`);
        return names.firstName.length > 0 && names.lastName.length > 0;
      }),
    );
  });

  it('splits a full name into the first word and the rest', () => {
    expect(splitFullName(' Jane  van Dyke ')).toEqual({ firstName: 'Jane', lastName: 'van Dyke' });
    expect(splitFullName('')).toBeNull();
  });
});

describe('brand matching', () => {
  it('ignores case and spaces, and stores the tidied spelling', () => {
    expect(brandKey('  Brooks   Running ')).toBe(brandKey('brooksrunning'));
    expect(brandKey('BROOKS RUNNING')).toBe(brandKey('Brooks Running'));
    expect(brandKey('Brooks Running')).not.toBe(brandKey('Brooks Runner'));
    expect(tidyBrandName('  Brooks   Running ')).toBe('Brooks Running');
  });
});

describe('row plans', () => {
  const eventColumns = { eventId: 'event_id', website: 'website', email: 'Email', firstName: 'First Name', lastName: 'Last Name' };
  const brandColumns = { brand: 'Brand', firstName: 'First Name', lastName: 'Last Name', email: 'Email', jobTitle: 'Current Job' };
  const row = (values: Record<string, string>, line = 2) => ({ line, values });

  it('plans an events row: website normalised, one contact per address, given names for the first', () => {
    const planned = planEventRow(
      row({ event_id: '42', website: 'race.example.org', Email: 'a@x.org; b.c@x.org', 'First Name': 'Ann', 'Last Name': '' }),
      eventColumns,
      5,
    );
    expect(planned).toEqual({
      ok: true,
      plan: {
        line: 2,
        wordpressEventId: 42,
        website: 'https://race.example.org',
        contacts: [
          { firstName: 'Ann', lastName: 'X', email: 'a@x.org', jobTitle: null },
          { firstName: 'B', lastName: 'C', email: 'b.c@x.org', jobTitle: null },
        ],
      },
    });
  });

  it('rejects a bad events row whole, naming its line and reason', () => {
    expect(planEventRow(row({ event_id: '4x', website: '', Email: '' }, 7), eventColumns, 3)).toEqual({
      ok: false,
      error: 'Line 7: event_id "4x" is not a whole number',
    });
    expect(planEventRow(row({ event_id: '4', website: 'javascript:alert(1)', Email: '' }), eventColumns, 3)).toEqual({
      ok: false,
      error: 'Line 2: website "javascript:alert(1)" is not a web address',
    });
    expect(planEventRow(row({ event_id: '4', website: '', Email: 'a@x.org, nope' }), eventColumns, 3)).toEqual({
      ok: false,
      error: 'Line 2: "nope" is not an email address',
    });
    expect(planEventRow(row({ event_id: '4', website: '', Email: '', [OVERFLOW_KEY]: '4' }), eventColumns, 3)).toEqual({
      ok: false,
      error: 'Line 2: has 4 cells but the header has 3; put quotes around cells that contain commas',
    });
  });

  it('plans a brands row with the job title on the first contact only, and checks lengths', () => {
    const planned = planBrandRow(
      row({
        Brand: '  On  Running ',
        'First Name': 'Ola',
        'Last Name': 'Nord',
        Email: 'ola@on.example.com sales@on.example.com',
        'Current Job': 'CMO',
      }),
      brandColumns,
      5,
    );
    expect(planned).toEqual({
      ok: true,
      plan: {
        line: 2,
        brandName: 'On Running',
        brandKey: 'onrunning',
        contacts: [
          { firstName: 'Ola', lastName: 'Nord', email: 'ola@on.example.com', jobTitle: 'CMO' },
          { firstName: 'Sales', lastName: 'On', email: 'sales@on.example.com', jobTitle: null },
        ],
      },
    });
    expect(planBrandRow(row({ Brand: 'X', 'First Name': 'a'.repeat(101), 'Last Name': 'B', Email: 'a@x.org' }), brandColumns, 4)).toEqual({
      ok: false,
      error: 'Line 2: First Name is longer than 100 characters',
    });
    expect(planBrandRow(row({ Brand: 'X', 'First Name': '', 'Last Name': '', Email: ' ; ' }), brandColumns, 4)).toEqual({
      ok: false,
      error: 'Line 2: Email has no address',
    });
  });

  it('refuses a row whose cell breaks the text rule, naming the column as the spec spells it and never quoting the cell', () => {
    expect(planEventRow(row({ event_id: '4\u0000', website: '', Email: 'a@x.org' }), eventColumns, 3)).toEqual({
      ok: false,
      error: 'Line 2: event_id contains an invalid character',
    });
    // The file calls its column "Emails"; the message uses the spec's name.
    const emails = planEventRow(row({ event_id: '4', website: '', Emails: 'a\ud800@x.org' }), { ...eventColumns, email: 'Emails' }, 3);
    expect(emails).toEqual({ ok: false, error: 'Line 2: Email contains an invalid character' });
    expect(
      planBrandRow(row({ Brand: 'X', 'First Name': 'A', 'Last Name': 'B', Email: 'a@x.org', 'Current Job': '\udc00x' }), brandColumns, 5),
    ).toEqual({
      ok: false,
      error: 'Line 2: Current Job contains an invalid character',
    });
    // A column the import does not read is never stored, so it does not matter what it holds.
    expect(
      planBrandRow(row({ Brand: 'Run 🏃', 'First Name': 'A', 'Last Name': 'B', Email: 'a@x.org', Notes: '\ud800' }), brandColumns, 6),
    ).toMatchObject({ ok: true, plan: { brandName: 'Run 🏃' } });
  });

  it('accepts only http(s) websites', () => {
    expect(normaliseWebsite('')).toBeNull();
    expect(normaliseWebsite(' http://a.org/x ')).toBe('http://a.org/x');
    expect(() => normaliseWebsite('ftp://a.org')).toThrow();
    expect(() => normaliseWebsite('not a url')).toThrow();
  });
});

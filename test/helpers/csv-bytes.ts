/**
 * CSV files as other programs save them, built in the test so the bytes are plain to see: Excel on Windows writes
 * Windows-1252, "CSV UTF-8" adds a BOM, "Unicode text" is UTF-16 LE with a BOM (and tab separated), and many
 * European locales separate cells with semicolons.
 */

/** The accented names an import must store exactly as written. */
export const ACCENTED = { brand: 'Café Running', firstName: 'René', lastName: 'Müller', email: 'rene@cafe.example.com' } as const;

/** A brands file: one accented row and one plain one, with the given separator and line ending. */
export function brandsText(separator = ',', eol = '\r\n'): string {
  return [
    ['Brand', 'First Name', 'Last Name', 'Email'],
    [ACCENTED.brand, ACCENTED.firstName, ACCENTED.lastName, ACCENTED.email],
    ['Brooks Running', 'Zoë', 'Faßbender', 'zoe@brooks.example.com'],
  ]
    .map((cells) => cells.join(separator))
    .join(eol)
    .concat(eol);
}

/** Windows-1252 bytes: one byte per character (every character used here is in Latin-1's printable range). */
export function windows1252(text: string): Buffer {
  const outside = [...text].find((ch) => ch.charCodeAt(0) > 0xff || (ch.charCodeAt(0) >= 0x80 && ch.charCodeAt(0) < 0xa0));
  if (outside !== undefined) throw new Error(`test fixture: ${JSON.stringify(outside)} has no one-byte Latin-1 form`);
  return Buffer.from(text, 'latin1');
}

export const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
export const utf8WithBom = (text: string): Buffer => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(text)]);
export const utf16leWithBom = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
export function utf16beWithBom(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf16le');
  return Buffer.concat([Buffer.from([0xfe, 0xff]), bytes.swap16()]);
}

/**
 * A UTF-8 file (its first row accented) whose line `badLine` holds one Windows-1252 byte, after enough plain
 * rows that the byte lies far beyond any first chunk a reader might sniff.
 */
export function utf8WithLateBadByte(rows: number, badLine: number): Buffer {
  const lines = [
    utf8(`Brand,First Name,Last Name,Email\n${ACCENTED.brand},${ACCENTED.firstName},${ACCENTED.lastName},${ACCENTED.email}\n`),
  ];
  for (let line = 3; line <= rows + 1; line++) {
    if (line === badLine) lines.push(Buffer.concat([utf8('Late Caf'), Buffer.from([0xe9]), utf8(`,Pat,Lee,late${line}@example.com\n`)]));
    else lines.push(utf8(`Brand ${line % 7},Pat,Lee,pat${line}@example.com\n`));
  }
  return Buffer.concat(lines);
}

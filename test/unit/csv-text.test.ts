import { describe, expect, it } from 'vitest';
import {
  countLineBreaks,
  CsvTextDecoder,
  CsvTextError,
  checkCsvText,
  decodeCsvBytes,
  detectSeparator,
  headerLineOf,
  separatorNote,
  UTF8_SNIFF_BYTES,
} from '@shared/csv-text.js';
import { brandsText, utf16beWithBom, utf16leWithBom, utf8, utf8WithBom, utf8WithLateBadByte, windows1252 } from '../helpers/csv-bytes.js';

/** Feeds bytes in chunks of `size` (1 splits every BOM, CRLF and multi-byte character) and joins the text. */
function decodeInChunks(bytes: Uint8Array, size: number) {
  const decoder = new CsvTextDecoder();
  let text = '';
  for (let at = 0; at < bytes.length; at += size) text += decoder.push(bytes.subarray(at, at + size));
  text += decoder.end();
  return { text, encoding: decoder.encoding };
}

function refusal(run: () => unknown): CsvTextError {
  try {
    run();
  } catch (error) {
    if (error instanceof CsvTextError) return error;
    throw error;
  }
  throw new Error('expected a CsvTextError');
}

describe('encoding detection', () => {
  const text = brandsText();
  const encodings = [
    ['windows-1252', windows1252(text)],
    ['utf-8', utf8(text)],
    ['utf-8', utf8WithBom(text)],
    ['utf-16le', utf16leWithBom(text)],
    ['utf-16be', utf16beWithBom(text)],
  ] as const;

  it.each(encodings)('reads %s bytes back as the text they were written from, whole or one byte at a time', (encoding, bytes) => {
    expect(decodeCsvBytes(bytes)).toEqual({ text, encoding });
    for (const size of [1, 2, 3, 7, 64]) expect(decodeInChunks(bytes, size)).toEqual({ text, encoding });
  });

  it('reads Excel’s Windows-1252 accents as the letters they are, never as U+FFFD', () => {
    const decoded = decodeCsvBytes(Buffer.from('Brand\r\nCaf\xe9 Running,Ren\xe9 M\xfcller\r\n', 'latin1'));
    expect(decoded.text).toBe('Brand\r\nCafé Running,René Müller\r\n');
    expect(decoded.text).not.toContain('\uFFFD');
  });

  it('calls plain ASCII UTF-8 and strips only a BOM at the very start', () => {
    expect(decodeCsvBytes(utf8('a,b\n1,2\n'))).toEqual({ text: 'a,b\n1,2\n', encoding: 'utf-8' });
    expect(decodeCsvBytes(new Uint8Array())).toEqual({ text: '', encoding: 'utf-8' });
    // A BOM after the first byte is content (and U+FEFF is a character like any other), not an encoding mark.
    expect(decodeCsvBytes(Buffer.concat([utf8('a'), utf8WithBom('é')])).text).toBe('a\uFEFFé');
  });

  it('waits for the first non-ASCII byte: a Windows-1252 letter after a long ASCII start is still read as Windows-1252', () => {
    const start = 'Brand,Email\n' + 'Plain,p@example.com\n'.repeat(Math.ceil((UTF8_SNIFF_BYTES * 2) / 20));
    const bytes = Buffer.concat([utf8(start), windows1252('Caf\xe9 Running,c@example.com\n')]);
    for (const size of [bytes.length, 4096]) {
      const decoded = decodeInChunks(bytes, size);
      expect(decoded.encoding).toBe('windows-1252');
      expect(decoded.text.endsWith('Café Running,c@example.com\n')).toBe(true);
    }
  });

  it('refuses an invalid UTF-8 byte found after UTF-8 was chosen, naming its line, and never hands out U+FFFD', () => {
    const bytes = utf8WithLateBadByte(4000, 3500);
    expect(bytes.indexOf(0xe9, bytes.indexOf('Late'))).toBeGreaterThan(UTF8_SNIFF_BYTES + 100);
    for (const size of [bytes.length, 65_536, 1000]) {
      const decoder = new CsvTextDecoder();
      let text = '';
      const error = refusal(() => {
        for (let at = 0; at < bytes.length; at += size) text += decoder.push(bytes.subarray(at, at + size));
        text += decoder.end();
      });
      expect(error.line).toBe(3500);
      expect(error.message).toBe(
        'Line 3500: not valid UTF-8 text (a character would be stored as \uFFFD); save the file as UTF-8 ("CSV UTF-8" in Excel) and import it again',
      );
      expect(decoder.encoding).toBe('utf-8');
      // Text before the bad line may have been handed out already (in small chunks), never the bad line.
      if (size === 1000) expect(text).toContain('Café Running');
      expect(text).not.toContain('Late Caf');
      expect(text).not.toContain('\uFFFD');
    }
  });

  it('refuses a UTF-8 sequence cut off at the end, a lone UTF-16 surrogate and a U+FFFD or NUL already in the file', () => {
    expect(refusal(() => decodeCsvBytes(Buffer.concat([utf8('Brand\nCafé\n'), Buffer.from([0xc3])]))).line).toBe(3);
    // A Windows-1252 letter ending the file is no cut-off UTF-8 sequence.
    expect(decodeCsvBytes(windows1252('Name\nJos\xe9'))).toEqual({ text: 'Name\nJosé', encoding: 'windows-1252' });
    const lone = Buffer.concat([utf16leWithBom('Brand\r\nx'), Buffer.from([0x00, 0xd8]), Buffer.from('y\r\n', 'utf16le')]);
    expect(refusal(() => decodeCsvBytes(lone)).message).toMatch(/^Line 2: not valid UTF-16 LE text/);
    expect(refusal(() => decodeCsvBytes(utf8('Brand\n\nCaf\uFFFD\n'))).line).toBe(3);
    const nul = refusal(() => decodeCsvBytes(Buffer.from('B\0r\0a\0n\0d\0', 'latin1')));
    expect(nul.message).toBe(
      'Line 1: contains a NUL character, so this is not CSV text (accepted: UTF-8, UTF-16 with a BOM, Windows-1252)',
    );
  });

  it('counts CRLF, LF and CR as one line break each, also when a chunk ends between CR and LF', () => {
    const bytes = utf8('a\r\nb\rc\nd\r\n\r\nCaf\uFFFD');
    expect(refusal(() => decodeCsvBytes(bytes)).line).toBe(6);
    expect(refusal(() => decodeInChunks(bytes, 1)).line).toBe(6);
    expect(countLineBreaks('a\r\nb\rc\nd')).toBe(3);
    expect(countLineBreaks('a\r\nb\rc\nd', 2)).toBe(1);
  });
});

describe('pasted text', () => {
  it('accepts ordinary text and refuses U+FFFD naming the line', () => {
    expect(() => checkCsvText('Brand\nCafé Running\n')).not.toThrow();
    expect(refusal(() => checkCsvText('Brand\r\nOK\r\nCaf\uFFFD Running\r\n')).message).toBe(
      'Line 3: contains \uFFFD, a character lost before the text reached the import; correct it and import again',
    );
    expect(refusal(() => checkCsvText('x\uFFFD', 7)).line).toBe(7);
  });
});

describe('separator detection', () => {
  const brandColumns = (cells: string[]) => ['Brand', 'First Name', 'Last Name', 'Email'].every((name) => cells.includes(name));

  it('finds the header line past blank lines and a BOM, and waits for a whole line unless the text is complete', () => {
    expect(headerLineOf('\uFEFF\r\n  \n;;\nBrand;Email\r\nx;y', false)).toBe('Brand;Email');
    expect(headerLineOf('"Brand\nName",Email\nx,y', false)).toBe('"Brand\nName",Email');
    expect(headerLineOf('Brand;Ema', false)).toBeNull();
    expect(headerLineOf('Brand;Ema', true)).toBe('Brand;Ema');
    expect(headerLineOf('\n\n', true)).toBe('');
  });

  it('counts , ; and tab outside quotes and prefers the one that yields the required columns', () => {
    expect(detectSeparator('Brand,First Name,Last Name,Email')).toBe(',');
    expect(detectSeparator('Brand;First Name;Last Name;Email')).toBe(';');
    expect(detectSeparator('Brand\tFirst Name\tLast Name\tEmail')).toBe('\t');
    expect(detectSeparator('"a;b;c;d",e,f')).toBe(',');
    expect(detectSeparator('Brand')).toBeNull();
    // More commas than semicolons, but only semicolons give the columns: the last cell is free text.
    const header = 'Brand;First Name;Last Name;Email;Notes: a, b, c, d, e and f';
    expect(detectSeparator(header)).toBe(',');
    expect(detectSeparator(header, brandColumns)).toBe(';');
    expect(detectSeparator('"Brand";"First Name";"Last Name";"Email"', brandColumns)).toBe(';');
    // None fits: the most used one is named.
    expect(detectSeparator('Brand;Vorname;Nachname;E-Mail', brandColumns)).toBe(';');
  });

  it('describes the separator for a message, leaving the spec’s comma text unchanged', () => {
    expect(separatorNote(',')).toBe('');
    expect(separatorNote(';')).toBe(' (the header line is separated by semicolons)');
    expect(separatorNote('\t')).toBe(' (the header line is separated by tabs)');
    expect(separatorNote(null)).toBe(' (the header line has no comma, semicolon or tab between its columns)');
  });
});

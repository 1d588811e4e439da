import type { Options } from 'csv-parse';
import { countLineBreaks, detectSeparator, separatorNote, type Separator } from '../csv-text.js';
import { resolveColumns, type ImportKind } from './rules.js';

/**
 * Turns csv-parse records into import rows keyed by the header, with the line each row starts on. Browser-safe:
 * the import screens and the CLI parse with the same options and number lines the same way.
 */

/** One data row of a file: the cells keyed by header cell, and the line of the file it starts on. */
export interface SourceRow {
  line: number;
  values: Record<string, string>;
}

/**
 * RFC 4180 parsing with csv-parse: quoted cells may hold separators, quotes ("") and line breaks; a UTF-8 BOM is
 * dropped; CRLF, LF and CR all end a record. Rows may be longer or shorter than the header (checked per row, so
 * one bad row cannot stop a whole file). Blank lines come through as one empty cell and are counted, not kept.
 * The separator is the header line's (comma when it has none).
 */
export function csvParseOptions(separator: Separator | null): Options {
  return {
    bom: true,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    delimiter: separator ?? ',',
  };
}

/** The separator of a file, from its header line: the one that gives the import its required columns, if any. */
export function separatorFor(kind: ImportKind, headerLine: string): Separator | null {
  return detectSeparator(headerLine, (cells) => resolveColumns(kind, cells).ok);
}

/** resolveColumns for a parsed file: a missing column's message also says which separator the file uses. */
export function resolveHeader<K extends ImportKind>(
  kind: K,
  header: readonly string[],
  separator: Separator | null,
): ReturnType<typeof resolveColumns<K>> {
  const resolved = resolveColumns(kind, header);
  return resolved.ok ? resolved : { ok: false, message: resolved.message + separatorNote(separator) };
}

/**
 * Set on a row whose record has more non-empty cells than the header has columns: the cells cannot be matched to
 * columns (usually an unquoted comma), so the engine rejects the row naming its line.
 */
export const OVERFLOW_KEY = '\u0000overflow';

const isBlank = (record: readonly string[]) => record.every((cell) => cell.trim() === '');

/**
 * Feeds records in file order; returns the header once and data rows after it. Blank lines (and rows of empty
 * cells) are skipped but still counted, so every line number matches the file.
 */
export class RecordReader {
  header: string[] | null = null;
  private nextLine = 1;

  push(record: readonly string[]): SourceRow | null {
    const line = this.nextLine;
    // Only quoted cells can hold line breaks, so a record spans one line plus the breaks inside its cells.
    // (csv-parse's own line counter counts a quoted CRLF twice.)
    let span = 1;
    for (const cell of record) span += countLineBreaks(cell);
    this.nextLine += span;
    if (isBlank(record)) return null;
    if (this.header === null) {
      this.header = record.map((cell) => cell.trim());
      return null;
    }
    const values: Record<string, string> = Object.create(null) as Record<string, string>;
    const header = this.header;
    for (let i = 0; i < header.length; i++) {
      const name = header[i]!;
      if (name !== '' && !(name in values)) values[name] = record[i] ?? '';
    }
    let used = record.length;
    while (used > header.length && record[used - 1]!.trim() === '') used--;
    if (used > header.length) values[OVERFLOW_KEY] = String(used);
    return { line, values };
  }
}

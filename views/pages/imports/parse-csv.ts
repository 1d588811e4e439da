import { parse } from 'csv-parse/browser/esm/sync';
import { csvParseOptions, RecordReader, resolveHeader, separatorFor, type SourceRow } from '@shared/imports/csv-records.js';
import {
  IMPORT_MESSAGES,
  isDroppedRow,
  noDataMessage,
  noValidRowsMessage,
  parseErrorMessage,
  type ImportKind,
} from '@shared/imports/rules.js';
import { checkCsvText, CsvTextError, headerLineOf, type Separator } from '@shared/csv-text.js';

/** What the screen sends: rows keyed by the header, and the file line of each (so errors name the right line). */
export interface ImportPayload {
  data: Array<Record<string, string>>;
  lines: number[];
}

export type ParsedCsv =
  | { ok: true; header: string[]; rows: SourceRow[]; payload: ImportPayload; dropped: number; separator: Separator | null }
  | { ok: false; message: string; detail?: string };

/**
 * Parses pasted text (or a file the screen has decoded with the shared detection) exactly as `pacer import` does:
 * same separator detection, same csv-parse options, same header and drop rules, so a file behaves the same in the
 * browser and in the terminal. Messages are spec point 5's.
 */
export function parseImportCsv(kind: ImportKind, text: string): ParsedCsv {
  if (text.trim() === '') return { ok: false, message: noDataMessage(kind) };
  try {
    checkCsvText(text);
  } catch (error) {
    if (error instanceof CsvTextError) return { ok: false, message: error.message };
    throw error;
  }
  const separator = separatorFor(kind, headerLineOf(text, true)!);
  let records: string[][];
  try {
    records = parse(text, csvParseOptions(separator)) as string[][];
  } catch (error) {
    return { ok: false, message: parseErrorMessage(kind), detail: error instanceof Error ? error.message : undefined };
  }
  const reader = new RecordReader();
  const rows: SourceRow[] = [];
  for (const record of records) {
    const row = reader.push(record);
    if (row) rows.push(row);
  }
  if (!reader.header || rows.length === 0) return { ok: false, message: IMPORT_MESSAGES.tooShort };
  const resolved = resolveHeader(kind, reader.header, separator);
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const kept = rows.filter((row) => !isDroppedRow(kind, row.values, resolved.columns));
  if (kept.length === 0) return { ok: false, message: noValidRowsMessage(kind) };
  return {
    ok: true,
    header: reader.header,
    separator,
    rows: kept,
    dropped: rows.length - kept.length,
    payload: {
      // A row with surplus cells keeps its overflow marker, so the server reports it with its line.
      data: kept.map((row) => row.values),
      lines: kept.map((row) => row.line),
    },
  };
}

import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { detectSeparator, CsvTextError } from '@shared/csv-text.js';
import { badRequest } from '@services/errors.js';
import { CsvRecordStream } from '../csv-source.js';

/**
 * A file of the general import as rows of text cells: CSV (any encoding and separator src/shared/csv-text.ts reads)
 * or XLSX (its first sheet), told apart by the ZIP signature XLSX files start with. Rows come in chunks as they are
 * parsed; `row` is the file's row number (the header is row 1), as a spreadsheet numbers it.
 */

export interface TableRow {
  row: number;
  cells: string[];
}

export interface TableSource {
  header: string[];
  rows: AsyncIterable<TableRow[]>;
  /** Stops reading the file (for a caller that wanted only the header); harmless once the rows have been read. */
  close(): void;
}

const CHUNK_ROWS = 500;
const isXlsx = (bytes: Buffer) => bytes.length > 3 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

const NO_DATA = 'The file has no header row';

/** A file as bytes, or as a stream of them (a file on disk, standard input, a job's stored input): never held whole. */
export type TableInput = Buffer | AsyncIterable<Buffer>;

/** The input as a stream, and its first bytes (at least four, unless it is shorter), which tell XLSX from CSV. */
async function withFirstBytes(input: TableInput): Promise<{ first: Buffer; stream: Readable }> {
  if (Buffer.isBuffer(input)) return { first: input, stream: Readable.from([input]) };
  const source = input[Symbol.asyncIterator]();
  // Text chunks (a test's standard input) as their UTF-8 bytes.
  const iterator = {
    next: async (): Promise<IteratorResult<Buffer>> => {
      const next = await source.next();
      return next.done ? next : { done: false, value: Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as string) };
    },
  };
  const head: Buffer[] = [];
  let length = 0;
  while (length < 4) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    length += next.value.length;
  }
  const first = Buffer.concat(head);
  async function* all(): AsyncGenerator<Buffer> {
    if (first.length) yield first;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { first, stream: Readable.from(all(), { objectMode: false }) };
}

export async function readTable(input: TableInput): Promise<TableSource> {
  const { first, stream } = await withFirstBytes(input);
  return isXlsx(first) ? readXlsx(stream) : readCsv(stream);
}

const csvProblem = (error: unknown) => {
  if (error instanceof CsvTextError) return badRequest(error.message);
  return error instanceof Error && 'code' in error && String(error.code).startsWith('CSV_')
    ? badRequest(`Invalid CSV: ${error.message}`)
    : error;
};

async function readCsv(input: Readable): Promise<TableSource> {
  let blankHeader = false;
  const records = new CsvRecordStream(input, (headerLine) => {
    blankHeader = headerLine.trim() === '';
    return detectSeparator(headerLine);
  });
  let pending: string[][] = [];
  /** The next record, or null at the end of the file. */
  const next = async (): Promise<string[] | null> => {
    while (pending.length === 0) {
      const more = await records.nextRecords();
      if (more === null) return null;
      pending = more.reverse();
    }
    return pending.pop()!;
  };
  let rowNumber = 0;
  let header: string[] | null = null;
  try {
    while (header === null) {
      const record = blankHeader ? null : await next();
      if (record === null || blankHeader) throw badRequest(NO_DATA);
      rowNumber++;
      if (!isBlank(record)) header = record.map((cell) => cell.trim());
    }
  } catch (error) {
    records.close();
    throw csvProblem(error);
  }
  async function* rows(): AsyncGenerator<TableRow[]> {
    let chunk: TableRow[] = [];
    try {
      for (;;) {
        const record = await next();
        if (record === null) break;
        rowNumber++;
        if (isBlank(record)) continue;
        chunk.push({ row: rowNumber, cells: record });
        if (chunk.length === CHUNK_ROWS) {
          yield chunk;
          chunk = [];
        }
      }
    } catch (error) {
      throw csvProblem(error);
    } finally {
      records.close();
    }
    if (chunk.length) yield chunk;
  }
  return { header, rows: rows(), close: () => records.close() };
}

/** A spreadsheet cell as text: dates as YYYY-MM-DD (or the full time when it has one), rich text and links as text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('formula' in value || 'sharedFormula' in value) return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
    if ('error' in value) return '';
    return '';
  }
  return String(value);
}

function rowCells(row: ExcelJS.Row): string[] {
  const values = row.values as ExcelJS.CellValue[];
  const cells: string[] = [];
  for (let i = 1; i < values.length; i++) cells.push(cellText(values[i] ?? null));
  return cells;
}

async function readXlsx(input: Readable): Promise<TableSource> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'emit',
  });
  const sheets = reader[Symbol.asyncIterator]();
  const first = await sheets.next().catch((error: unknown) => {
    throw badRequest(`The file cannot be read as XLSX: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (first.done) throw badRequest(NO_DATA);
  const sheet = first.value as AsyncIterable<ExcelJS.Row>;
  const rowIterator = sheet[Symbol.asyncIterator]();
  let header: string[] | null = null;
  while (header === null) {
    const next = await rowIterator.next();
    if (next.done) throw badRequest(NO_DATA);
    const cells = rowCells(next.value);
    if (!isBlank(cells)) header = cells.map((cell) => cell.trim());
  }
  async function* rows(): AsyncGenerator<TableRow[]> {
    let chunk: TableRow[] = [];
    for (;;) {
      const next = await rowIterator.next();
      if (next.done) break;
      const cells = rowCells(next.value);
      if (isBlank(cells)) continue;
      chunk.push({ row: next.value.number, cells });
      if (chunk.length === CHUNK_ROWS) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length) yield chunk;
  }
  return { header, rows: rows(), close: () => input.destroy() };
}

import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { decodeCsvBytes, detectSeparator, headerLineOf, CsvTextError } from '@shared/csv-text.js';
import { csvParseOptions } from '@shared/imports/csv-records.js';
import { badRequest } from '@services/errors.js';

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
}

const CHUNK_ROWS = 500;
const isXlsx = (bytes: Buffer) => bytes.length > 3 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

const NO_DATA = 'The file has no header row';

export async function readTable(bytes: Buffer): Promise<TableSource> {
  return isXlsx(bytes) ? readXlsx(bytes) : readCsv(bytes);
}

async function readCsv(bytes: Buffer): Promise<TableSource> {
  let text: string;
  try {
    text = decodeCsvBytes(bytes).text;
  } catch (error) {
    if (error instanceof CsvTextError) throw badRequest(error.message);
    throw error;
  }
  const headerLine = headerLineOf(text, true);
  if (headerLine === null || headerLine.trim() === '') throw badRequest(NO_DATA);
  const parser = Readable.from([text]).pipe(parse(csvParseOptions(detectSeparator(headerLine))));
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let rowNumber = 0;
  let header: string[] | null = null;
  try {
    while (header === null) {
      const next = await iterator.next();
      if (next.done) throw badRequest(NO_DATA);
      rowNumber++;
      if (!isBlank(next.value)) header = next.value.map((cell) => cell.trim());
    }
  } catch (error) {
    parser.destroy();
    throw error instanceof Error && 'code' in error && String(error.code).startsWith('CSV_')
      ? badRequest(`Invalid CSV: ${error.message}`)
      : error;
  }
  async function* rows(): AsyncGenerator<TableRow[]> {
    let chunk: TableRow[] = [];
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        rowNumber++;
        if (isBlank(next.value)) continue;
        chunk.push({ row: rowNumber, cells: next.value });
        if (chunk.length === CHUNK_ROWS) {
          yield chunk;
          chunk = [];
        }
      }
    } catch (error) {
      throw error instanceof Error && 'code' in error && String(error.code).startsWith('CSV_')
        ? badRequest(`Invalid CSV: ${error.message}`)
        : error;
    } finally {
      parser.destroy();
    }
    if (chunk.length) yield chunk;
  }
  return { header, rows: rows() };
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

async function readXlsx(bytes: Buffer): Promise<TableSource> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
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
  return { header, rows: rows() };
}

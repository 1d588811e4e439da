import { pipeline, type Readable } from 'node:stream';
import { parse as parseStream, CsvError } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { badRequest } from '../errors.js';
import { CSV_PARSE_OPTIONS, RecordReader, type SourceRow } from './csv-records.js';
import { IMPORT_MESSAGES, noDataMessage, parseErrorMessage, type ImportKind } from './rules.js';
import type { ImportSource } from './service.js';

type RawRecord = string[];

/** A csv-parse failure becomes the spec's message for the import, with the parser's own detail as an issue. */
export function csvFailure(kind: ImportKind, error: unknown): Error {
  if (error instanceof CsvError) return badRequest(parseErrorMessage(kind), [{ path: 'csv', message: error.message }]);
  return error instanceof Error ? error : new Error(String(error));
}

function emptyFile(kind: ImportKind): Error {
  return badRequest(noDataMessage(kind));
}

/** Parses a whole text at once (tests, small inputs). */
export function sourceFromText(kind: ImportKind, text: string): ImportSource {
  if (text.trim() === '') throw emptyFile(kind);
  let records: RawRecord[];
  try {
    records = parseSync(text, CSV_PARSE_OPTIONS) as unknown as RawRecord[];
  } catch (error) {
    throw csvFailure(kind, error);
  }
  const reader = new RecordReader();
  const rows: SourceRow[] = [];
  for (const record of records) {
    const row = reader.push(record);
    if (row) rows.push(row);
  }
  if (!reader.header) throw emptyFile(kind);
  if (rows.length === 0) throw badRequest(IMPORT_MESSAGES.tooShort);
  return { header: reader.header, chunks: [rows] };
}

/** Records are handed on in chunks: one await per chunk instead of one per row keeps parsing cheap. */
const CHUNK_RECORDS = 1000;

/** Pulls parsed records from the parser as they become available, without an await per record. */
class RecordPump {
  private failure: unknown = null;
  private ended = false;
  private wake: () => void = () => undefined;

  constructor(private readonly parser: Readable) {
    parser.on('readable', () => this.wake());
    parser.on('end', () => {
      this.ended = true;
      this.wake();
    });
    parser.on('error', (error: unknown) => {
      this.failure = error;
      this.wake();
    });
  }

  /** Up to CHUNK_RECORDS records, or null at the end of the file. */
  async next(): Promise<RawRecord[] | null> {
    for (;;) {
      if (this.failure) throw this.failure;
      const out: RawRecord[] = [];
      let record: RawRecord | null;
      while (out.length < CHUNK_RECORDS && (record = this.parser.read() as RawRecord | null) !== null) out.push(record);
      if (out.length) return out;
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/**
 * Streams a file through csv-parse: the header is read before this resolves, rows are parsed as the engine
 * asks for them, so memory holds a batch or two however large the file is. A parse error part-way through is
 * thrown from the row chunks (the batches before it have been applied; a re-run after fixing the file completes it).
 */
export async function sourceFromStream(kind: ImportKind, input: NodeJS.ReadableStream): Promise<ImportSource> {
  const parser = parseStream(CSV_PARSE_OPTIONS);
  pipeline(input, parser, () => {
    // Errors surface through the pump below.
  });
  const pump = new RecordPump(parser);
  const reader = new RecordReader();
  const next = async (): Promise<SourceRow[] | null> => {
    let records: RawRecord[] | null;
    try {
      records = await pump.next();
    } catch (error) {
      throw csvFailure(kind, error);
    }
    if (records === null) return null;
    const rows: SourceRow[] = [];
    for (const record of records) {
      const row = reader.push(record);
      if (row) rows.push(row);
    }
    return rows;
  };
  let first: SourceRow[] = [];
  while (first.length === 0) {
    const rows = await next();
    if (rows === null) break;
    first = rows;
  }
  if (!reader.header) throw emptyFile(kind);
  if (first.length === 0) throw badRequest(IMPORT_MESSAGES.tooShort);
  const firstRows = first;
  async function* chunks(): AsyncGenerator<SourceRow[]> {
    yield firstRows;
    for (;;) {
      const rows = await next();
      if (rows === null) return;
      if (rows.length) yield rows;
    }
  }
  return { header: reader.header, chunks: chunks() };
}

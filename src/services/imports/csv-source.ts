import { pipeline } from 'node:stream';
import { parse as parseStream, CsvError } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { badRequest } from '../errors.js';
import { CSV_PARSE_OPTIONS, RecordReader, type SourceRow } from './csv-records.js';
import { IMPORT_MESSAGES, noDataMessage, parseErrorMessage, type ImportKind } from './rules.js';
import type { ImportSource } from './service.js';

interface RawRecord {
  record: string[];
  raw: string;
}

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
  for (const { record, raw } of records) {
    const row = reader.push(record, raw);
    if (row) rows.push(row);
  }
  if (!reader.header) throw emptyFile(kind);
  if (rows.length === 0) throw badRequest(IMPORT_MESSAGES.tooShort);
  return { header: reader.header, rows };
}

/**
 * Streams a file through csv-parse: the header is read before this resolves, rows are parsed as the engine
 * asks for them, so memory holds one batch however large the file is. A parse error part-way through is thrown
 * from the row iterator (the batches before it have been applied; a re-run after fixing the file completes it).
 */
export async function sourceFromStream(kind: ImportKind, input: NodeJS.ReadableStream): Promise<ImportSource> {
  const parser = parseStream(CSV_PARSE_OPTIONS);
  pipeline(input, parser, () => {
    // Errors surface through the parser's iterator below.
  });
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<RawRecord>;
  const reader = new RecordReader();
  const next = async (): Promise<IteratorResult<RawRecord>> => {
    try {
      return await iterator.next();
    } catch (error) {
      throw csvFailure(kind, error);
    }
  };
  let first: SourceRow | null = null;
  while (!reader.header || !first) {
    const step = await next();
    if (step.done) break;
    first = reader.push(step.value.record, step.value.raw);
  }
  if (!reader.header) throw emptyFile(kind);
  if (!first) throw badRequest(IMPORT_MESSAGES.tooShort);
  const firstRow = first;
  async function* rows(): AsyncGenerator<SourceRow> {
    yield firstRow;
    for (;;) {
      const step = await next();
      if (step.done) return;
      const row = reader.push(step.value.record, step.value.raw);
      if (row) yield row;
    }
  }
  return { header: reader.header, rows: rows() };
}

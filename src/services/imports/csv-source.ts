import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { parse as parseStream, CsvError } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { checkCsvText, CsvTextDecoder, CsvTextError, headerLineOf, type Separator } from '@shared/csv-text.js';
import { badRequest } from '../errors.js';
import { csvParseOptions, RecordReader, resolveHeader, separatorFor, type SourceRow } from '@shared/imports/csv-records.js';
import { IMPORT_MESSAGES, noDataMessage, parseErrorMessage, type ImportKind } from '@shared/imports/rules.js';
import type { ImportSource } from './service.js';

type RawRecord = string[];

/**
 * A csv-parse failure becomes the spec's message for the import, with the parser's own detail as an issue; text
 * that cannot be read is refused with its own message, which names the line.
 */
function csvFailure(kind: ImportKind, error: unknown): Error {
  if (error instanceof CsvError) return badRequest(parseErrorMessage(kind), [{ path: 'csv', message: error.message }]);
  if (error instanceof CsvTextError) return badRequest(error.message);
  return error instanceof Error ? error : new Error(String(error));
}

function emptyFile(kind: ImportKind): Error {
  return badRequest(noDataMessage(kind));
}

/** The header must hold the import's columns; the message names the file's separator when it is not a comma. */
function checkHeader(kind: ImportKind, header: readonly string[], separator: Separator | null) {
  const resolved = resolveHeader(kind, header, separator);
  if (!resolved.ok) throw badRequest(resolved.message);
}

/** Parses a whole text at once (tests, small inputs). */
export function sourceFromText(kind: ImportKind, text: string): ImportSource {
  if (text.trim() === '') throw emptyFile(kind);
  try {
    checkCsvText(text);
  } catch (error) {
    throw csvFailure(kind, error);
  }
  const separator = separatorFor(kind, headerLineOf(text, true)!);
  let records: RawRecord[];
  try {
    records = parseSync(text, csvParseOptions(separator)) as unknown as RawRecord[];
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
  checkHeader(kind, reader.header, separator);
  return { header: reader.header, chunks: [rows] };
}

/** The header line is looked for in at most this much text; a longer "line" is taken as it is. */
const MAX_HEADER_CHARS = 64 * 1024;

/**
 * Bytes in, text out, decoded by the shared detection. Text is held back until the header line is whole, so the
 * parser after this stream can be made with the header's separator (csv-parse fixes it when it is created).
 */
class DecodingStream extends Transform {
  bytesRead = 0;
  private readonly decoder = new CsvTextDecoder();
  /** Text waiting for the header line to end; null once handed on. */
  private head: string | null = '';

  constructor(private readonly onHeaderLine: (line: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.bytesRead += chunk.length;
    this.forward(() => this.decoder.push(chunk), false, done);
  }

  override _flush(done: TransformCallback) {
    this.forward(() => this.decoder.end(), true, done);
  }

  private forward(decode: () => string, final: boolean, done: TransformCallback) {
    let text: string;
    try {
      text = decode();
    } catch (error) {
      done(error as Error);
      return;
    }
    if (this.head !== null) {
      this.head += text;
      const line = headerLineOf(this.head, final || this.head.length >= MAX_HEADER_CHARS);
      if (line === null) return done();
      text = this.head;
      this.head = null;
      this.onHeaderLine(line);
    }
    if (text) this.push(text);
    done();
  }
}

/** Records are handed on in chunks: one await per chunk instead of one per row keeps parsing cheap. */
const CHUNK_RECORDS = 1000;

/** The spec's imports' CSV file from a stream (CsvRecordStream), as their engine reads it: rows after the header. */
export class CsvStreamReader {
  private readonly records: CsvRecordStream;

  constructor(
    private readonly kind: ImportKind,
    input: NodeJS.ReadableStream,
  ) {
    this.records = new CsvRecordStream(input, (headerLine) => separatorFor(kind, headerLine));
  }

  /** Bytes read from the input so far (for a progress bar). */
  get bytesRead(): number {
    return this.records.bytesRead;
  }

  /** Stops reading and destroys the input (for an import that stops early); harmless once the file has been read. */
  close() {
    this.records.close();
  }

  /**
   * The import source: resolves once the header and the first rows have been read, after which rows are parsed
   * as the engine asks for them. A failure part-way (bad quoting, unreadable text) is thrown from the row chunks;
   * the batches before it have been applied, and a re-run after fixing the file completes it.
   */
  async source(): Promise<ImportSource> {
    const reader = new RecordReader();
    const next = async (): Promise<SourceRow[] | null> => {
      let records: RawRecord[] | null;
      try {
        records = await this.records.nextRecords();
      } catch (error) {
        throw csvFailure(this.kind, error);
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
    if (!reader.header) throw emptyFile(this.kind);
    if (first.length === 0) throw badRequest(IMPORT_MESSAGES.tooShort);
    checkHeader(this.kind, reader.header, this.records.separator);
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
}

/**
 * A CSV file's records from a stream: decoded (see src/shared/csv-text.ts), the header line's separator found by
 * `separatorOf`, and parsed with csv-parse as records are asked for, so memory holds a chunk or two however large
 * the file is. The spec's imports (CsvStreamReader below) and the general import (./general/read.ts) read through it.
 *
 * Everything that can fail is connected in the constructor, before the caller can await anything: an 'error'
 * from the input (EIO, a client gone, a file removed) that arrived during an await with nothing listening would
 * crash the process. Construct this as soon as the stream exists, and `close()` it if it is never read.
 */
export class CsvRecordStream {
  separator: Separator | null = null;
  private readonly decoding: DecodingStream;
  private parser: Readable | null = null;
  private failure: unknown = null;
  private ended = false;
  private wake: () => void = () => undefined;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly separatorOf: (headerLine: string) => Separator | null,
  ) {
    this.decoding = new DecodingStream((line) => this.startParser(line));
    pipeline(input, this.decoding, (error) => {
      if (error) this.fail(error);
    });
  }

  /** Bytes read from the input so far (for a progress bar). */
  get bytesRead(): number {
    return this.decoding.bytesRead;
  }

  /** Stops reading and destroys the input (for a read that stops early); harmless once the file has been read. */
  close() {
    this.parser?.destroy();
    this.decoding.destroy();
  }

  /** Called by the decoding stream, synchronously, once the header line is known: the parser is made and piped at once. */
  private startParser(headerLine: string) {
    this.separator = this.separatorOf(headerLine);
    const parser = parseStream(csvParseOptions(this.separator));
    this.parser = parser;
    parser.on('readable', () => this.wake());
    parser.on('end', () => {
      this.ended = true;
      this.wake();
    });
    pipeline(this.decoding, parser, (error) => {
      if (error) this.fail(error);
    });
  }

  private fail(error: unknown) {
    this.failure ??= error;
    this.wake();
  }

  /** Up to CHUNK_RECORDS records as they become available (no await per record), or null at the end of the file. */
  async nextRecords(): Promise<RawRecord[] | null> {
    for (;;) {
      if (this.failure) throw this.failure;
      const out: RawRecord[] = [];
      let record: RawRecord | null;
      while (this.parser && out.length < CHUNK_RECORDS && (record = this.parser.read() as RawRecord | null) !== null) out.push(record);
      if (out.length) return out;
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

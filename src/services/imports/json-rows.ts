import { checkCsvText, CsvTextError } from '@shared/csv-text.js';
import { OVERFLOW_KEY, type SourceRow } from '@shared/imports/csv-records.js';
import { IMPORT_MESSAGES, type ImportKind } from '@shared/imports/rules.js';
import { AppError, badRequest, payloadTooLarge } from '../errors.js';
import { JsonStringTooLongError, JsonSyntaxError, JsonTokenizer, type JsonEvents, type JsonScalar } from './json-tokens.js';

/**
 * Where a JSON import body keeps its rows: in the body itself (`{data, lines}`, the import endpoints) or in its
 * `params` (`{type, params: {kind, data, lines}}`, POST /api/jobs).
 */
export type RowsContainer = 'body' | 'params';

/** Rows one import may send; larger files go through `pacer import`. */
const MAX_JSON_ROWS = 500_000;
/** One cell or column name: far above any column we store, and what keeps one string's memory bounded. */
const MAX_STRING_CHARS = 1024 * 1024;
/** Distinct column names in all: a header, not a place to hide a body in. */
const MAX_COLUMNS = 10_000;
/** Everything kept besides the rows (type, kind, dryRun…), in characters: the general 1 MB body limit. */
const MAX_FIELD_CHARS = 1024 * 1024;

const MESSAGES = {
  notJson: 'The request body is not valid JSON',
  tooLarge: 'The request body is too large',
  notAList: 'data must be a list of rows',
  tooMany: `At most ${MAX_JSON_ROWS} rows per import; use \`pacer import\` for larger files`,
  badLines: 'lines must give one line number (above 1) per row',
  notAnObject: (row: number) => `Row ${row} is not an object keyed by the CSV header`,
  notText: (row: number, key: string) => `Row ${row}: ${key} must be text`,
  longText: (row: number) => `Row ${row}: a value may have at most ${MAX_STRING_CHARS} characters`,
  tooManyColumns: `At most ${MAX_COLUMNS} columns per import`,
};

/** The answers of a body that is not JSON, or too large a part of one: as the JSON body parser gives them. */
function jsonBodyFailure(error: unknown): unknown {
  if (error instanceof JsonSyntaxError) return new AppError(400, 'bad_json', MESSAGES.notJson);
  return error;
}

function noData(kind: ImportKind) {
  return badRequest(kind === 'events' ? IMPORT_MESSAGES.events.noDataTitle : IMPORT_MESSAGES.brands.noData);
}

/** Text that lost characters before it reached us (e.g. Windows-1252 bytes sent as JSON) is refused, never stored. */
function textError(text: string, line: number): AppError | null {
  try {
    checkCsvText(text, line);
    return null;
  } catch (error) {
    if (error instanceof CsvTextError) return badRequest(error.message);
    throw error;
  }
}

type Frame =
  | { kind: 'root' | 'params'; key: string | null }
  | { kind: 'data' }
  | { kind: 'lines' }
  | { kind: 'row'; index: number; values: Record<string, string> | null; key: string | null }
  | { kind: 'skip' }
  | { kind: 'build'; value: Record<string, unknown> | unknown[]; key: string | null };

/** Where a value goes, decided as it starts. */
type Slot =
  | { to: 'fields'; target: Record<string, unknown> | unknown[]; key: string | null }
  | { to: 'data' | 'lines' | 'skip' | 'top' }
  | { to: 'row'; frame: Extract<Frame, { kind: 'row' }> };

interface RowError {
  index: number;
  /** The error, given the row's line (known only once `lines`, which may come after the rows, is read). */
  make(line: number): AppError;
}

/**
 * Reads a JSON import body as it streams: the rows (`data`) and their line numbers (`lines`) are checked one row at
 * a time, by the rules the import endpoints have always applied, and never held; everything else (type, kind…) is
 * kept as plain values, up to 1 MB. The request checks the body with it while storing the bytes; the job reads the
 * stored bytes back through it twice: once for the header and lines, then for the rows, a batch at a time.
 */
export class JsonRowsReader {
  /** The top-level value's shape: an object (as expected), an array, or nothing yet. */
  shape: 'object' | 'array' | 'none' = 'none';
  /** The top-level fields besides the rows; in 'params' mode, `params` is kept too (without data and lines). */
  readonly fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  /** Whether the rows (or their lines) have begun: from here on the body is large, and stored. */
  largeStarted = false;
  rows = 0;
  readonly header: string[] = [];
  private readonly seen = new Set<string>();
  private dataKind: 'absent' | 'null' | 'array' | 'other' = 'absent';
  private linesKind: 'absent' | 'array' | 'other' = 'absent';
  private linesValid = true;
  /** The line numbers sent (one per row), kept up to one more than the most rows allowed. */
  readonly lines: number[] = [];
  private linesCount = 0;
  private rowError: RowError | null = null;
  private fieldChars = 0;
  private readonly stack: Frame[] = [];
  private readonly tokenizer: JsonTokenizer;
  /** Rows read and not yet taken (when reading them back). */
  private ready: SourceRow[] = [];

  constructor(
    private readonly container: RowsContainer,
    /** Given, the rows are built and handed out through takeRows(), on these lines (null: row i is on line i + 2). */
    private readonly readBack?: { lines: readonly number[] | null },
  ) {
    const events: JsonEvents = {
      open: (kind) => this.open(kind),
      close: () => this.close(),
      key: (name) => this.key(name),
      value: (value) => this.value(value),
    };
    this.tokenizer = new JsonTokenizer(events, MAX_STRING_CHARS);
  }

  write(chunk: Buffer): void {
    this.guard(() => this.tokenizer.write(chunk));
  }

  end(): void {
    this.guard(() => this.tokenizer.end());
  }

  /** The rows built since the last call (reading back). */
  takeRows(): SourceRow[] {
    const rows = this.ready;
    this.ready = [];
    return rows;
  }

  private guard(run: () => void) {
    try {
      run();
    } catch (error) {
      if (error instanceof JsonStringTooLongError) throw this.longString();
      throw jsonBodyFailure(error);
    }
  }

  /** A string over the limit: a cell names its row; anywhere else the body is simply too large. */
  private longString(): AppError {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'row') return badRequest(MESSAGES.longText(top.index + 1));
    return payloadTooLarge(MESSAGES.tooLarge);
  }

  /**
   * Throws the first thing wrong with the rows, in the order the endpoints have always checked them: no rows,
   * fields nobody knows, data not a list, too many rows, bad line numbers, then the first bad row.
   */
  checkRows(kind: ImportKind, unknownKeys: readonly string[]): void {
    if (this.shape !== 'object') throw noData(kind);
    if (unknownKeys.length) throw badRequest(`Unknown field(s): ${unknownKeys.join(', ')}`);
    if (this.dataKind === 'absent' || this.dataKind === 'null' || (this.dataKind === 'array' && this.rows === 0)) throw noData(kind);
    if (this.dataKind === 'other') throw badRequest(MESSAGES.notAList, [{ path: 'data', message: 'Expected a list of rows' }]);
    if (this.rows > MAX_JSON_ROWS) throw badRequest(MESSAGES.tooMany);
    if (this.linesKind !== 'absent' && !(this.linesKind === 'array' && this.linesValid && this.linesCount === this.rows))
      throw badRequest(MESSAGES.badLines, [{ path: 'lines', message: 'Expected one line number per row' }]);
    if (this.rowError) throw this.rowError.make(this.lineOf(this.rowError.index, this.linesKind === 'array' ? this.lines : null));
  }

  /** The line numbers sent with the rows, or null when none were (row i is then on line i + 2). */
  linesSent(): readonly number[] | null {
    return this.linesKind === 'array' ? this.lines : null;
  }

  /** Which of `data` and `lines` the body has (a job other than an import refuses them). */
  rowKeys(): string[] {
    return [...(this.dataKind === 'absent' ? [] : ['data']), ...(this.linesKind === 'absent' ? [] : ['lines'])];
  }

  private lineOf(index: number, lines: readonly number[] | null): number {
    return lines ? lines[index]! : index + 2;
  }

  private fail(index: number, make: RowError['make']) {
    this.rowError ??= { index, make };
  }

  /** Where the value starting now goes. */
  private slot(): Slot {
    const top = this.stack[this.stack.length - 1];
    if (!top) return { to: 'top' };
    switch (top.kind) {
      case 'root':
      case 'params': {
        const key = top.key!;
        const rowsHere = this.container === 'body' ? top.kind === 'root' : top.kind === 'params';
        if (rowsHere && key === 'data') return { to: 'data' };
        if (rowsHere && key === 'lines') return { to: 'lines' };
        return { to: 'fields', target: top.kind === 'root' ? this.fields : (this.fields.params as Record<string, unknown>), key };
      }
      case 'data':
        return { to: 'data' };
      case 'lines':
        return { to: 'lines' };
      case 'row':
        return { to: 'row', frame: top };
      case 'skip':
        return { to: 'skip' };
      case 'build':
        return { to: 'fields', target: top.value, key: top.key };
    }
  }

  private keep(chars: number) {
    this.fieldChars += chars;
    if (this.fieldChars > MAX_FIELD_CHARS) throw payloadTooLarge(MESSAGES.tooLarge);
  }

  private open(kind: 'object' | 'array') {
    const slot = this.slot();
    const parent = this.stack[this.stack.length - 1];
    switch (slot.to) {
      case 'top':
        this.shape = kind === 'object' ? 'object' : 'array';
        this.stack.push(kind === 'object' ? { kind: 'root', key: null } : { kind: 'skip' });
        return;
      case 'fields': {
        this.keep(2);
        if (parent?.kind === 'root' && this.container === 'params' && slot.key === 'params' && kind === 'object') {
          this.fields.params = Object.create(null) as Record<string, unknown>;
          this.stack.push({ kind: 'params', key: null });
          return;
        }
        const value = kind === 'object' ? (Object.create(null) as Record<string, unknown>) : [];
        place(slot.target, slot.key, value);
        this.stack.push({ kind: 'build', value, key: null });
        return;
      }
      case 'data':
        if (parent?.kind === 'data') {
          const index = this.rows++;
          if (kind === 'object') {
            this.stack.push({
              kind: 'row',
              index,
              values: this.readBack ? (Object.create(null) as Record<string, string>) : null,
              key: null,
            });
            return;
          }
          this.fail(index, () => badRequest(MESSAGES.notAnObject(index + 1), [{ path: `data.${index}`, message: 'Expected an object' }]));
        } else if (kind === 'array') {
          this.dataKind = 'array';
          this.largeStarted = true;
          this.stack.push({ kind: 'data' });
          return;
        } else {
          this.dataKind = 'other';
        }
        this.stack.push({ kind: 'skip' });
        return;
      case 'lines':
        if (parent?.kind === 'lines') {
          this.linesValid = false;
          this.linesCount++;
        } else if (kind === 'array') {
          this.linesKind = 'array';
          this.largeStarted = true;
          this.stack.push({ kind: 'lines' });
          return;
        } else {
          this.linesKind = 'other';
        }
        this.stack.push({ kind: 'skip' });
        return;
      case 'row': {
        const { index, key } = slot.frame;
        this.fail(index, () => badRequest(MESSAGES.notText(index + 1, key!), [{ path: `data.${index}.${key}`, message: 'Expected text' }]));
        this.stack.push({ kind: 'skip' });
        return;
      }
      case 'skip':
        this.stack.push({ kind: 'skip' });
        return;
    }
  }

  private close() {
    const frame = this.stack.pop()!;
    if (frame.kind === 'row' && frame.values) {
      this.ready.push({ line: this.lineOf(frame.index, this.readBack!.lines), values: frame.values });
    }
  }

  private key(name: string) {
    const top = this.stack[this.stack.length - 1]!;
    if (top.kind === 'root' || top.kind === 'params' || top.kind === 'row' || top.kind === 'build') top.key = name;
  }

  private value(value: JsonScalar) {
    const slot = this.slot();
    const parent = this.stack[this.stack.length - 1];
    switch (slot.to) {
      case 'top':
        // A bare string or number is not a body the JSON parser takes (it wants an object or a list).
        throw new AppError(400, 'bad_json', MESSAGES.notJson);
      case 'fields':
        this.keep(typeof value === 'string' ? value.length + 2 : 8);
        place(slot.target, slot.key, value);
        return;
      case 'data':
        if (parent?.kind === 'data') {
          const index = this.rows++;
          this.fail(index, () => badRequest(MESSAGES.notAnObject(index + 1), [{ path: `data.${index}`, message: 'Expected an object' }]));
        } else {
          this.dataKind = value === null ? 'null' : 'other';
        }
        return;
      case 'lines':
        if (parent?.kind === 'lines') {
          if (!(typeof value === 'number' && Number.isInteger(value) && value > 1)) this.linesValid = false;
          if (this.lines.length <= MAX_JSON_ROWS) this.lines.push(typeof value === 'number' ? value : 0);
          this.linesCount++;
        } else {
          this.linesKind = 'other';
        }
        return;
      case 'row':
        this.cell(slot.frame, value);
        return;
      case 'skip':
        return;
    }
  }

  /** One cell of a row: text (or a number, true/false, null read as text) under a column of the header. */
  private cell(row: Extract<Frame, { kind: 'row' }>, value: JsonScalar) {
    const { index } = row;
    const key = row.key!;
    if (row.values) row.values[key] = value === null ? '' : String(value);
    if (this.rowError && !this.readBack) return;
    if (typeof value === 'string') {
      const failure = textError(value, 0);
      if (failure) this.fail(index, (line) => textError(value, line)!);
    }
    if (!this.seen.has(key) && key !== OVERFLOW_KEY) {
      if (this.seen.size >= MAX_COLUMNS) throw badRequest(MESSAGES.tooManyColumns);
      const failure = textError(key, 1);
      if (failure) this.fail(index, () => failure);
      this.seen.add(key);
      this.header.push(key);
    }
  }
}

function place(target: Record<string, unknown> | unknown[], key: string | null, value: unknown) {
  if (Array.isArray(target)) target.push(value);
  else target[key!] = value;
}

import { BoundedCache } from '@shared/bounded-cache.js';

/**
 * One place where database values become wire values and back. Both dialects store lists as JSON text,
 * booleans as 0/1, money and coordinates as DECIMAL (SQLite: NUMERIC affinity) and timestamps as
 * 'YYYY-MM-DD HH:MM:SS.mmm' UTC text; the wire carries lists as arrays, money/decimals as strings,
 * date-only values as 'YYYY-MM-DD' and timestamps as ISO-8601 UTC.
 */
type ColumnKind = 'boolean' | 'list' | 'money' | 'decimal' | 'date' | 'timestamp' | 'integer';

interface DecimalSpec {
  kind: 'money' | 'decimal';
  scale: number;
}

export type ColumnKinds = Record<string, ColumnKind | DecimalSpec>;

export function decodeList(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.map((item) => String(item)) : [];
}

export function encodeList(value: readonly string[] | null | undefined): string {
  return JSON.stringify(value ?? []);
}

/** Exact decimal text with a fixed scale; SQLite may hand back a float such as 0.30000000000000004. */
export function decodeDecimal(value: unknown, scale: number): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value.toFixed(scale);
  return normaliseDecimalText(String(value), scale);
}

export function normaliseDecimalText(text: string, scale: number): string {
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) throw new Error(`Not a decimal: ${text}`);
  const [, sign = '', whole = '', fraction = ''] = match;
  if (fraction.length <= scale) return `${sign}${whole || '0'}${scale ? '.' + fraction.padEnd(scale, '0') : ''}`;
  // More digits than the column keeps: round half away from zero on the integer of the smallest unit.
  const units = BigInt((whole || '0') + fraction.slice(0, scale)) + (Number(fraction[scale]) >= 5 ? 1n : 0n);
  return formatUnits(sign === '-' ? -units : units, scale);
}

export function toUnits(text: string, scale: number): bigint {
  const normalised = normaliseDecimalText(text, scale);
  const negative = normalised.startsWith('-');
  const digits = normalised.replace('-', '').replace('.', '');
  return negative ? -BigInt(digits) : BigInt(digits);
}

function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale ? '.' + fraction : ''}`;
}

/** Sums money strings exactly (integer cents). */
export function sumMoney(values: Iterable<string | null | undefined>): string {
  let total = 0n;
  for (const value of values) if (value) total += toUnits(value, 2);
  return formatUnits(total, 2);
}

function decodeBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

function decodeDate(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return String(value).slice(0, 10);
}

const STORED_INSTANT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,3})?$/;

export function decodeTimestamp(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return new Date(value).toISOString();
  const text = String(value);
  // The stored form: rewrite the text rather than parse a Date (lists decode thousands of these a second).
  const stored = STORED_INSTANT.exec(text);
  if (stored) return `${text.slice(0, 10)}T${text.slice(11, 19)}.${(stored[1] ?? '.000').slice(1).padEnd(3, '0')}Z`;
  const iso = text.includes('T') ? text : text.replace(' ', 'T');
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`).toISOString();
}

/** The text both dialects store and compare for a UTC instant. */
export function encodeTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

type Decoder = (value: unknown) => unknown;

function decoderFor(kind: ColumnKind | DecimalSpec): Decoder {
  if (typeof kind === 'object') return (value) => decodeDecimal(value, kind.scale);
  switch (kind) {
    case 'boolean':
      return decodeBoolean;
    case 'list':
      return decodeList;
    case 'date':
      return decodeDate;
    case 'timestamp':
      return decodeTimestamp;
    case 'integer':
      return (value) => (value === null || value === undefined ? null : Number(value));
    default:
      return (value) => value;
  }
}

type RowDecoder = (row: Record<string, unknown>) => Record<string, unknown>;

/** Per table, one compiled decoder per set of selected columns (a query selects the same columns for every row). */
const compiled = new WeakMap<ColumnKinds, BoundedCache<string, RowDecoder>>();

/**
 * Builds a function that returns each row as one object literal naming every column. Copying a row column by
 * column (or deleting from a copy) would leave V8 with slow dictionary-mode objects for rows of 40 columns, which
 * then cost several times more to decode and to serialise on every list request.
 */
function compileRowDecoder(kinds: ColumnKinds, columns: readonly string[]): RowDecoder {
  const decoders = columns.map((column) => (Object.hasOwn(kinds, column) ? decoderFor(kinds[column]!) : undefined));
  const fields = columns.map((column, i) => {
    const key = JSON.stringify(column);
    return `${key}: ${decoders[i] ? `decoders[${i}](row[${key}])` : `row[${key}]`}`;
  });
  // Column names come from our own schema and are quoted by JSON.stringify, so the generated source is inert.
  return new Function('decoders', `return (row) => ({ ${fields.join(', ')} });`)(decoders) as RowDecoder;
}

function rowDecoder(kinds: ColumnKinds, columns: readonly string[]): RowDecoder {
  let byColumns = compiled.get(kinds);
  if (!byColumns) {
    // Bounded: the column sets are those of our own queries, but a runaway caller must not grow this forever.
    byColumns = new BoundedCache(200);
    compiled.set(kinds, byColumns);
  }
  return byColumns.get(columns.join('\0'), () => compileRowDecoder(kinds, columns));
}

/** Decodes rows that share their columns (one result set); `omit` drops helper columns such as inline totals. */
export function decodeRows<T>(kinds: ColumnKinds, rows: readonly Record<string, unknown>[], omit: readonly string[] = []): T[] {
  if (rows.length === 0) return [];
  const decode = rowDecoder(
    kinds,
    Object.keys(rows[0]!).filter((column) => !omit.includes(column)),
  );
  return rows.map((row) => decode(row) as T);
}

export function decodeRow<T>(kinds: ColumnKinds, row: Record<string, unknown>): T {
  return decodeRows<T>(kinds, [row])[0]!;
}

export function encodeRow(kinds: ColumnKinds, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const kind = kinds[column];
    if (kind === undefined) out[column] = value;
    else if (typeof kind === 'object')
      out[column] = value === null || value === '' ? null : normaliseDecimalText(String(value), kind.scale);
    else if (kind === 'boolean') out[column] = value ? 1 : 0;
    else if (kind === 'list') out[column] = encodeList(value as string[] | null);
    else if (kind === 'timestamp') out[column] = encodeTimestamp(value as Date | string | null);
    else if (kind === 'date') out[column] = value === '' ? null : value;
    else out[column] = value;
  }
  return out;
}

/**
 * CSV text as RFC 4180 writes it, for the exports: fields separated by commas, records ended by CRLF, a field quoted
 * when it holds a comma, a quote or a line break, its quotes doubled. Written here rather than with csv-stringify:
 * an export of 100,000 events spent a fifth of its CPU in that library's per-field options and casting, and the
 * benchmark's export figure (≤ 2 s) needs it gone.
 */
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record's line, CRLF included. */
export function csvRecord(fields: readonly string[]): string {
  // Appended in a loop: map and join made an export's 100,000 records ~60 ms slower.
  let line = '';
  for (let index = 0; index < fields.length; index++) line += (index === 0 ? '' : ',') + csvField(fields[index]!);
  return line + '\r\n';
}

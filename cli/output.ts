import type { CliIO } from './runtime.js';

/**
 * Control characters (C0 but tab, DEL, C1) as visible escapes, so text from the database (a user's own name,
 * a record's name) cannot drive the reader's terminal: an ESC sequence can rewrite the screen, OSC 52 set the
 * clipboard. Every human-readable line the CLI prints passes its data through this; --json output needs nothing
 * (JSON.stringify escapes U+0000–U+001F, and a JSON reader is no terminal).
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : ch;
  });
}

/** Lines for a terminal, each line's text made printable (the line breaks between them stay). */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/** The commands (their io) that have printed their one JSON document. */
const printedJson = new WeakSet<CliIO>();

/** A --json command's one document on stdout (a failure after it adds none: see reportFailure in runtime.ts). */
export function printJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  printedJson.add(io);
}

export const hasPrintedJson = (io: CliIO) => printedJson.has(io);

/** The one shape of a --json command's failure. */
export interface JsonFailure {
  code: string;
  message: string;
  details?: unknown;
}

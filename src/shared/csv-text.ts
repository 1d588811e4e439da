/**
 * How the bytes of a CSV file become text, and which separator its header line uses. Browser-safe and shared:
 * the import screens decode a chosen file with it, the CLI and the API decode streams with it, so a file reads
 * the same everywhere. Imports nothing outside src/shared.
 *
 * Encodings: a BOM decides (UTF-8, UTF-16 LE, UTF-16 BE). Without one the file is UTF-8 if its bytes are valid
 * UTF-8, otherwise Windows-1252 (what Excel on Windows saves). A character that cannot be read is never passed
 * on as U+FFFD: the text is refused, naming the line.
 */

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export const ENCODING_LABELS: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
};

export type Separator = ',' | ';' | '\t';

const REPLACEMENT = '\uFFFD';
const NUL = '\u0000';

const CSV_TEXT_MESSAGES = {
  /** Bytes the chosen encoding cannot read (or a U+FFFD already in the file, which reads the same). */
  invalidBytes: (line: number, encoding: CsvEncoding) =>
    `Line ${line}: not valid ${ENCODING_LABELS[encoding]} text (a character would be stored as ${REPLACEMENT}); save the file as UTF-8 ("CSV UTF-8" in Excel) and import it again`,
  /** Text that arrived already decoded (pasted, or JSON rows) with a character lost on the way. */
  lostCharacter: (line: number) =>
    `Line ${line}: contains ${REPLACEMENT}, a character lost before the text reached the import; correct it and import again`,
  /** Usually UTF-16 saved without a BOM, or not a text file at all. */
  nul: (line: number) =>
    `Line ${line}: contains a NUL character, so this is not CSV text (accepted: UTF-8, UTF-16 with a BOM, Windows-1252)`,
} as const;

/** Text that cannot be imported as it is; `line` is the file's line (CRLF, LF and CR each end one). */
export class CsvTextError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvTextError';
  }
}

/** Line breaks in `text` before `end`, counted as the CSV reader counts them: CRLF, LF and CR each end one line. */
export function countLineBreaks(text: string, end = text.length): number {
  if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) return 0;
  let count = 0;
  for (let i = 0; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) count++;
    else if (ch === 13) {
      count++;
      if (i + 1 < end && text.charCodeAt(i + 1) === 10) i++;
    }
  }
  return count;
}

/**
 * Refuses text holding U+FFFD (a character some decoder could not read), naming the line it is on. `encoding`
 * says where the text came from: bytes we decoded, or text that arrived decoded (null). Decoded bytes are also
 * refused at a NUL, the mark of UTF-16 saved without a BOM or of a file that is not text at all; in text that
 * arrived as text a NUL is left to the text rules of the shared schemas.
 */
function checkCharacters(text: string, firstLine: number, encoding: CsvEncoding | null): void {
  const replacement = text.indexOf(REPLACEMENT);
  const nul = encoding ? text.indexOf(NUL) : -1;
  if (replacement === -1 && nul === -1) return;
  const isNul = nul !== -1 && (replacement === -1 || nul < replacement);
  const at = isNul ? nul : replacement;
  const line = firstLine + countLineBreaks(text, at);
  const message = isNul
    ? CSV_TEXT_MESSAGES.nul(line)
    : encoding
      ? CSV_TEXT_MESSAGES.invalidBytes(line, encoding)
      : CSV_TEXT_MESSAGES.lostCharacter(line);
  throw new CsvTextError(message, line);
}

/** For text that is already Unicode (pasted, JSON rows): throws CsvTextError if it holds U+FFFD. */
export function checkCsvText(text: string, firstLine = 1): void {
  checkCharacters(text, firstLine, null);
}

const BOMS: ReadonlyArray<{ bytes: readonly number[]; encoding: CsvEncoding }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/**
 * Without a BOM, the first non-ASCII byte and this many bytes after it (or the rest of the file, if shorter) decide
 * between UTF-8 and Windows-1252. A Windows-1252 letter is almost never followed by the bytes UTF-8 needs, so
 * even a short window tells them apart; a longer one only delays the refusal of a file that mixes the two.
 */
export const UTF8_SNIFF_BYTES = 64 * 1024;

const EMPTY = new Uint8Array(0);
/** ASCII reads the same in every encoding here; this decoder only ever sees bytes below 0x80. */
const asciiDecoder = new TextDecoder('windows-1252');

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
/** Too few bytes yet to tell whether a BOM starts the file. */
const mayBecomeBom = (bytes: Uint8Array) =>
  BOMS.some((bom) => bytes.length < bom.bytes.length && bytes.every((byte, i) => bom.bytes[i] === byte));

function firstNonAscii(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}

/** `bytes` start at the file's first non-ASCII byte; `atEnd` says the file ends with them. */
function looksLikeUtf8(bytes: Uint8Array, atEnd: boolean): boolean {
  let text: string;
  try {
    // stream: true holds back a sequence cut off at the end of the window instead of calling it an error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return false;
  }
  // At the end of the file a cut-off sequence is UTF-8 cut short if a character before it read as UTF-8 (it is
  // then refused, naming its line), but a lone Windows-1252 letter ending the file ("José") if it is the first.
  return !atEnd || text.charCodeAt(0) >= 0x80;
}

/**
 * Decodes a file handed over in chunks of any size (a whole file is one chunk). Text comes out in order; while
 * the encoding is still open, bytes are held back (at most a BOM's worth, or the sniff window). Throws
 * CsvTextError at the first character that cannot be read, before handing out any text of that line.
 */
export class CsvTextDecoder {
  private decoder: TextDecoder | null = null;
  private chosen: CsvEncoding | null = null;
  private held: Uint8Array = EMPTY;
  private bomChecked = false;
  /** The line the next text starts on, and whether the text so far ended in CR (a CRLF may span two chunks). */
  private line = 1;
  private endsWithCR = false;

  /** The encoding chosen so far: null while every byte has been ASCII (then UTF-8 at the end). */
  get encoding(): CsvEncoding | null {
    return this.chosen;
  }

  push(chunk: Uint8Array): string {
    return this.decode(chunk, false);
  }

  /** The text still held back; call once after the last chunk. */
  end(): string {
    const text = this.decode(EMPTY, true);
    this.chosen ??= 'utf-8';
    return text;
  }

  private decode(chunk: Uint8Array, final: boolean): string {
    if (this.decoder) return this.checked(this.decoder.decode(chunk, { stream: !final }));
    let bytes = concat(this.held, chunk);
    this.held = EMPTY;
    if (!this.bomChecked) {
      if (!final && mayBecomeBom(bytes)) {
        this.held = bytes;
        return '';
      }
      this.bomChecked = true;
      const bom = BOMS.find((candidate) => startsWith(bytes, candidate.bytes));
      if (bom) return this.checked(this.choose(bom.encoding).decode(bytes.subarray(bom.bytes.length), { stream: !final }));
    }
    // No BOM: ASCII reads the same in UTF-8 and Windows-1252, so the choice waits for the first other byte.
    const start = firstNonAscii(bytes);
    if (start === -1) return this.checked(asciiDecoder.decode(bytes));
    const ascii = asciiDecoder.decode(bytes.subarray(0, start));
    bytes = bytes.subarray(start);
    if (!final && bytes.length < UTF8_SNIFF_BYTES) {
      this.held = bytes;
      return this.checked(ascii);
    }
    const window = bytes.subarray(0, UTF8_SNIFF_BYTES);
    const decoder = this.choose(looksLikeUtf8(window, final && window.length === bytes.length) ? 'utf-8' : 'windows-1252');
    return this.checked(ascii + decoder.decode(bytes, { stream: !final }));
  }

  private choose(encoding: CsvEncoding): TextDecoder {
    this.chosen = encoding;
    // Not fatal: a bad byte becomes U+FFFD, which checked() finds and turns into a refusal naming its line.
    // ignoreBOM keeps a U+FEFF after the start as the character it is (a BOM at the start was removed above).
    this.decoder = new TextDecoder(encoding, { ignoreBOM: true });
    return this.decoder;
  }

  private checked(text: string): string {
    if (text === '') return text;
    // A CR ending the previous text and an LF starting this one are one line break, counted already.
    const joinsCRLF = this.endsWithCR && text.charCodeAt(0) === 10;
    const firstLine = joinsCRLF ? this.line - 1 : this.line;
    checkCharacters(text, firstLine, this.chosen ?? 'utf-8');
    this.line = firstLine + countLineBreaks(text);
    this.endsWithCR = text.charCodeAt(text.length - 1) === 13;
    return text;
  }
}

/** Decodes a whole file (the browser's chosen or dropped file). Throws CsvTextError. */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  const decoder = new CsvTextDecoder();
  const text = decoder.push(bytes) + decoder.end();
  return { text, encoding: decoder.encoding! };
}

/**
 * Calls `visit` with the index of each character outside double quotes (a doubled quote inside quotes toggles
 * twice, so it needs no special case) until `visit` returns true; returns that index, or -1.
 */
function scanUnquoted(text: string, from: number, visit: (code: number, index: number) => boolean): number {
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 34) quoted = !quoted;
    else if (!quoted && visit(code, i)) return i;
  }
  return -1;
}

const isBreak = (code: number) => code === 10 || code === 13;
/** Blank lines (or lines of bare separators) come before the header in some exports; the reader skips them too. */
const isBlankLine = (line: string) => /^[\s,;]*$/.test(line);

/**
 * The first non-blank line of `text` (a leading BOM dropped; a line break inside quotes does not end it), or null
 * when it is not complete yet and more text may follow (`final` false).
 */
export function headerLineOf(text: string, final: boolean): string | null {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    const end = scanUnquoted(text, start, isBreak);
    if (end === -1) return final ? text.slice(start) : null;
    const line = text.slice(start, end);
    if (!isBlankLine(line)) return line;
    start = end + 1;
  }
}

const SEPARATORS: readonly Separator[] = [',', ';', '\t'];

/** The header line's cells for a separator, unquoted: enough to match column names. */
function splitHeaderLine(line: string, separator: Separator): string[] {
  const cells: string[] = [];
  let start = 0;
  const code = separator.charCodeAt(0);
  scanUnquoted(line, 0, (c, index) => {
    if (c === code) {
      cells.push(line.slice(start, index));
      start = index + 1;
    }
    return false;
  });
  cells.push(line.slice(start));
  return cells.map((cell) =>
    cell
      .trim()
      .replace(/^"([\s\S]*)"$/, '$1')
      .replace(/""/g, '"'),
  );
}

/**
 * The separator a header line uses: of `,` `;` and tab (counted outside quotes), the first, by count, whose cells
 * hold the import's required columns; when none does, the most used one (a tie goes to the comma, then the
 * semicolon). Null when the line has none of them.
 */
export function detectSeparator(headerLine: string, hasRequiredColumns?: (cells: string[]) => boolean): Separator | null {
  const counts = new Map<Separator, number>(SEPARATORS.map((separator) => [separator, 0]));
  scanUnquoted(headerLine, 0, (code) => {
    const separator = SEPARATORS.find((candidate) => candidate.charCodeAt(0) === code);
    if (separator) counts.set(separator, counts.get(separator)! + 1);
    return false;
  });
  const used = SEPARATORS.filter((separator) => counts.get(separator)! > 0).sort((a, b) => counts.get(b)! - counts.get(a)!);
  if (hasRequiredColumns) {
    const fitting = used.find((separator) => hasRequiredColumns(splitHeaderLine(headerLine, separator)));
    if (fitting) return fitting;
  }
  return used[0] ?? null;
}

/**
 * Added to a missing-column message, so a file with another separator says why its columns were not found.
 * Empty for the comma, the documented separator, so the spec's message stays as it is.
 */
export function separatorNote(separator: Separator | null): string {
  if (separator === ',') return '';
  if (separator === ';') return ' (the header line is separated by semicolons)';
  if (separator === '\t') return ' (the header line is separated by tabs)';
  return ' (the header line has no comma, semicolon or tab between its columns)';
}

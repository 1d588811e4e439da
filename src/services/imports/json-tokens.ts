import { StringDecoder } from 'node:string_decoder';

export type JsonScalar = string | number | boolean | null;

/** What the tokenizer reports, in document order. A key is always followed by its value. */
export interface JsonEvents {
  open(kind: 'object' | 'array'): void;
  close(): void;
  key(name: string): void;
  value(value: JsonScalar): void;
}

/** Bytes that are not JSON (as JSON.parse would refuse them). */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** A single string (key or value) longer than the tokenizer holds. */
export class JsonStringTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`A JSON string is longer than ${limit} characters`);
    this.name = 'JsonStringTooLongError';
  }
}

/** What may come next. */
type Expect = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'commaOrClose' | 'done';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** A number or literal longer than this is not one. */
const MAX_BARE_TOKEN = 512;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
/** Where a string's plain run ends: its closing quote, an escape, or a control character (not allowed raw). */
// eslint-disable-next-line no-control-regex -- JSON refuses raw control characters in a string: finding them is the point.
const STRING_STOP = /["\\\u0000-\u001f]/g;

/**
 * A push tokenizer for JSON: bytes go in a chunk at a time, events come out as each token completes, and nothing is
 * kept but the token being read (a string at most `maxStringChars` long) and the nesting. It accepts exactly what
 * JSON.parse accepts (UTF-8, one top-level value, surrounding whitespace), so a body refused here is one
 * JSON.parse would refuse too; callers build only the parts of the document they need.
 */
export class JsonTokenizer {
  private readonly decoder = new StringDecoder('utf8');
  private readonly stack: Array<'object' | 'array'> = [];
  private expect: Expect = 'value';
  /** The token being read across chunks: a string's parts, or a number's/literal's text. */
  private token: 'none' | 'string' | 'bare' = 'none';
  private parts: string[] = [];
  private partsLength = 0;
  private stringIsKey = false;
  /** Text of an escape sequence cut by a chunk boundary, read again with the next chunk. */
  private carry = '';

  constructor(
    private readonly events: JsonEvents,
    private readonly maxStringChars: number,
  ) {}

  write(chunk: Buffer): void {
    this.scan(this.decoder.write(chunk));
  }

  /** The input is complete: throws unless it was one whole JSON value. */
  end(): void {
    this.scan(this.decoder.end());
    if (this.carry) throw new JsonSyntaxError('Unexpected end of JSON input');
    if (this.token === 'bare') this.finishBare();
    if (this.token !== 'none' || this.expect !== 'done') throw new JsonSyntaxError('Unexpected end of JSON input');
  }

  private scan(input: string): void {
    const text = this.carry ? this.carry + input : input;
    this.carry = '';
    let i = 0;
    const length = text.length;
    while (i < length) {
      if (this.token === 'string') {
        i = this.readString(text, i);
        continue;
      }
      const c = text[i]!;
      if (this.token === 'bare') {
        if (/[0-9a-zA-Z.+-]/.test(c)) {
          this.addPart(c, MAX_BARE_TOKEN);
          i++;
          continue;
        }
        this.finishBare();
      }
      i++;
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
      switch (this.expect) {
        case 'value':
        case 'valueOrClose':
          if (c === ']' && this.expect === 'valueOrClose') this.closeContainer();
          else this.startValue(c);
          break;
        case 'key':
        case 'keyOrClose':
          if (c === '}' && this.expect === 'keyOrClose') this.closeContainer();
          else if (c === '"') this.startString(true);
          else throw unexpected(c);
          break;
        case 'colon':
          if (c !== ':') throw unexpected(c);
          this.expect = 'value';
          break;
        case 'commaOrClose': {
          const inside = this.stack[this.stack.length - 1];
          if (c === ',') this.expect = inside === 'object' ? 'key' : 'value';
          else if ((c === '}' && inside === 'object') || (c === ']' && inside === 'array')) this.closeContainer();
          else throw unexpected(c);
          break;
        }
        case 'done':
          throw unexpected(c);
      }
    }
  }

  private startValue(c: string) {
    if (c === '{' || c === '[') {
      const kind = c === '{' ? 'object' : 'array';
      this.stack.push(kind);
      this.expect = kind === 'object' ? 'keyOrClose' : 'valueOrClose';
      this.events.open(kind);
    } else if (c === '"') {
      this.startString(false);
    } else if (/[-0-9tfn]/.test(c)) {
      this.token = 'bare';
      this.parts = [c];
      this.partsLength = 1;
    } else {
      throw unexpected(c);
    }
  }

  private closeContainer() {
    this.stack.pop();
    this.events.close();
    this.afterValue();
  }

  private afterValue() {
    this.expect = this.stack.length ? 'commaOrClose' : 'done';
  }

  private startString(isKey: boolean) {
    this.token = 'string';
    this.stringIsKey = isKey;
    this.parts = [];
    this.partsLength = 0;
  }

  private addPart(part: string, limit: number) {
    this.partsLength += part.length;
    if (this.partsLength > limit) {
      if (this.token === 'bare') throw new JsonSyntaxError('A number or literal is too long');
      throw new JsonStringTooLongError(limit);
    }
    this.parts.push(part);
  }

  /** Reads string text from `i`; returns where it stopped (the chunk's end, or after the closing quote). */
  private readString(text: string, i: number): number {
    STRING_STOP.lastIndex = i;
    const stop = STRING_STOP.exec(text);
    const end = stop ? stop.index : text.length;
    if (end > i) this.addPart(text.slice(i, end), this.maxStringChars);
    if (!stop) return text.length;
    const c = text[end]!;
    if (c === '"') {
      const value = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
      this.token = 'none';
      this.parts = [];
      if (this.stringIsKey) {
        this.expect = 'colon';
        this.events.key(value);
      } else {
        this.events.value(value);
        this.afterValue();
      }
      return end + 1;
    }
    if (c !== '\\') throw new JsonSyntaxError('Bad control character in string literal');
    // An escape: \x, or \uXXXX. Cut by the chunk's end, it is read again with the next chunk.
    const kind = text[end + 1];
    if (kind === undefined) {
      this.carry = text.slice(end);
      return text.length;
    }
    if (kind === 'u') {
      if (end + 6 > text.length) {
        this.carry = text.slice(end);
        return text.length;
      }
      const hex = text.slice(end + 2, end + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError('Bad Unicode escape in JSON');
      this.addPart(String.fromCharCode(parseInt(hex, 16)), this.maxStringChars);
      return end + 6;
    }
    const escaped = ESCAPES[kind];
    if (escaped === undefined) throw new JsonSyntaxError('Bad escaped character in JSON');
    this.addPart(escaped, this.maxStringChars);
    return end + 2;
  }

  private finishBare() {
    const text = this.parts.join('');
    this.token = 'none';
    this.parts = [];
    let value: JsonScalar;
    if (text === 'true') value = true;
    else if (text === 'false') value = false;
    else if (text === 'null') value = null;
    else if (NUMBER.test(text)) value = Number(text);
    else throw new JsonSyntaxError(`Unexpected token in JSON: ${text.slice(0, 20)}`);
    this.events.value(value);
    this.afterValue();
  }
}

function unexpected(c: string): JsonSyntaxError {
  return new JsonSyntaxError(`Unexpected character ${JSON.stringify(c)} in JSON`);
}

import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, JsonTokenizer, type JsonScalar } from '@services/imports/json-tokens.js';

/** Builds the value back from the tokenizer's events, feeding the bytes in the given pieces. */
function parseInPieces(bytes: Buffer, cuts: number[], maxStringChars = 1000): unknown {
  let result: unknown;
  const stack: Array<{ value: unknown[] | Record<string, unknown>; key: string | null }> = [];
  const place = (value: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) result = value;
    else if (Array.isArray(top.value)) top.value.push(value);
    else top.value[top.key!] = value;
  };
  const tokenizer = new JsonTokenizer(
    {
      open: (kind) => {
        const value = kind === 'object' ? {} : [];
        place(value);
        stack.push({ value, key: null });
      },
      close: () => void stack.pop(),
      key: (name) => void (stack[stack.length - 1]!.key = name),
      value: (value: JsonScalar) => place(value),
    },
    maxStringChars,
  );
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    tokenizer.write(bytes.subarray(from, cut));
    from = cut;
  }
  tokenizer.end();
  return result;
}

const DOCUMENTS = [
  '{"data":[{"Brand":"Caf\u00e9 \\"Z\\u00fcrich\\"","n":-12.5e+3,"ok":true,"none":null}],"lines":[2,3]}',
  ' [ 1 , [ ] , { } , "a\\/b\\\\c\\n\\t\\r\\b\\f" , false , 0 , -0.25 , 1E2 ] ',
  '{"emoji":"\ud83c\udfc3 \\ud83c\\udfc3","k\u00f6ln":"\u65e5\u672c"}',
  '"plain"',
  '123',
];

describe('JSON tokenizer', () => {
  it('reads what JSON.parse reads, however the bytes are cut (escapes and multi-byte characters split too)', () => {
    for (const text of DOCUMENTS) {
      const bytes = Buffer.from(text, 'utf8');
      const expected = JSON.parse(text) as unknown;
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(parseInPieces(bytes, [cut]), `${text} cut at ${cut}`).toEqual(expected);
      }
      // One byte at a time.
      expect(
        parseInPieces(
          bytes,
          Array.from({ length: bytes.length }, (_, i) => i),
        ),
      ).toEqual(expected);
    }
  });

  it('refuses what JSON.parse refuses', () => {
    const bad = [
      '',
      '{',
      '{"a":1,}',
      '[1,]',
      '[1 2]',
      '{"a" 1}',
      '{a:1}',
      "{'a':1}",
      '[01]',
      '[1.]',
      '[.5]',
      '[+1]',
      '[tru]',
      '[nul]',
      '["a\\x"]',
      '["\\u12G4"]',
      '["tab\there"]',
      '{"a":1}}',
      '{"a":1} x',
      '[1][2]',
      '["unterminated',
      '["cut \\u00',
    ];
    for (const text of bad) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(() => parseInPieces(Buffer.from(text), []), text).toThrow(JsonSyntaxError);
    }
  });

  it('holds no string longer than its limit', () => {
    expect(() => parseInPieces(Buffer.from(`["${'x'.repeat(101)}"]`), [20, 60], 100)).toThrow('longer than 100 characters');
    expect(parseInPieces(Buffer.from(`["${'x'.repeat(100)}"]`), [20, 60], 100)).toEqual(['x'.repeat(100)]);
  });
});

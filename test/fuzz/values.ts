import fc from 'fast-check';

/**
 * Generated values are symbolic (a long string is `{ big, times }`, an id is a reference to a seeded row), so a
 * counterexample stays short enough to read and the same case renders the same bytes against any database.
 */

/** Owners of ids the harness seeded; a reference picks one of them when the request is built. */
export const ID_OWNERS = ['event', 'professional', 'runclub', 'brand', 'media', 'influencer', 'contact', 'payment', 'file'] as const;
export type IdOwner = (typeof ID_OWNERS)[number];
export type IdPools = Record<IdOwner, number[]>;

/** JSON as generated: any key order, duplicate keys, `__proto__` as a plain key, lone surrogates. */
export type Json =
  | { s: string }
  | { n: string }
  | { b: boolean }
  | { nul: true }
  | { a: Json[] }
  | { o: Array<[string, Json]> }
  /** The id of a seeded row (`text`: as a digit string, as form fields send it). */
  | { id: IdOwner | 'owner'; pick: number; text?: boolean }
  /** `unit` repeated `times` times. */
  | { big: string; times: number }
  /** Arrays (or objects) nested `depth` deep. */
  | { deep: number; shape: 'array' | 'object' };

export interface RenderEnv {
  pools: IdPools;
  /** What an `owner` reference means in this body (the entityType it was sent with). */
  ownerType: IdOwner;
}

/**
 * Most characters one rendered body may hold: past the 50 MB import limit in bytes for wide characters, yet far
 * below what a string can hold (a few symbolic values nested in a list could otherwise ask for gigabytes).
 */
const MAX_RENDERED_CHARS = 30_000_000;

/** `arbitrary` once in `oneIn` draws, else null (fc.option's `freq` is the other way round: how often it is null). */
export const rarely = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

export function idFrom(pools: IdPools, owner: IdOwner, pick: number): number {
  const pool = pools[owner];
  // No row of that type (deleted by earlier cases, or none seeded): an id no row has.
  return pool.length ? pool[pick % pool.length]! : 987_654;
}

/** JSON text; strings go through JSON.stringify, which writes a lone surrogate as a \uD800 escape. */
export function renderJson(value: Json, env: RenderEnv): string {
  // Long values share one budget, spent in document order, so the same case always renders the same text.
  const budget = { left: MAX_RENDERED_CHARS };
  const render = (node: Json): string => {
    if ('s' in node) return JSON.stringify(node.s);
    if ('n' in node) return node.n;
    if ('b' in node) return String(node.b);
    if ('nul' in node) return 'null';
    if ('a' in node) return `[${node.a.map(render).join(',')}]`;
    if ('o' in node) return `{${node.o.map(([key, item]) => `${JSON.stringify(key)}:${render(item)}`).join(',')}}`;
    if ('id' in node) {
      const id = idFrom(env.pools, node.id === 'owner' ? env.ownerType : node.id, node.pick);
      return node.text ? JSON.stringify(String(id)) : String(id);
    }
    if ('big' in node) {
      const times = Math.max(0, Math.min(node.times, Math.floor(budget.left / node.big.length)));
      budget.left -= times * node.big.length;
      return JSON.stringify(node.big.repeat(times));
    }
    const depth = Math.max(0, Math.min(node.deep, Math.floor(budget.left / 6)));
    budget.left -= depth * 6;
    return node.shape === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  };
  return render(value);
}

/** Short form for reports: long values stay symbolic. */
export function showJson(value: Json): string {
  if ('s' in value) return JSON.stringify(value.s.length > 80 ? `${value.s.slice(0, 80)}…(${value.s.length} chars)` : value.s);
  if ('n' in value) return value.n;
  if ('b' in value) return String(value.b);
  if ('nul' in value) return 'null';
  if ('a' in value) return `[${value.a.map(showJson).join(',')}]`;
  if ('o' in value) return `{${value.o.map(([key, item]) => `${JSON.stringify(key)}:${showJson(item)}`).join(',')}}`;
  if ('id' in value) return `<id of ${value.id} #${value.pick}${value.text ? ' as text' : ''}>`;
  if ('big' in value) return `<${JSON.stringify(value.big)} x ${value.times}>`;
  return `<${value.shape}s nested ${value.deep} deep>`;
}

// ---------------------------------------------------------------------------------------------------------
// Text

/** Characters that break text handling: NUL and controls, lone and paired surrogates, joiners, BOM, separators. */
const AWKWARD_CHARS = [
  'a',
  'Z',
  '0',
  '9',
  ' ',
  ',',
  '.',
  '-',
  '_',
  '@',
  '"',
  "'",
  '\\',
  '/',
  '%',
  '&',
  '=',
  '+',
  '#',
  '?',
  ';',
  ':',
  '<',
  '>',
  '`',
  '\u0000',
  '\u0001',
  '\u0008',
  '\t',
  '\n',
  '\r',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00ad',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ud83d',
  '\ude00',
  '\ud83d\ude00',
  '\ud83c\udfc3\u200d\u2640\ufe0f',
  '\u0301',
  '\u200b',
  '\u200d',
  '\u202e',
  '\ufeff',
  '\ufffd',
  '\uffff',
  'é',
  'ß',
  'İ',
  'ﬀ',
  '中',
  'ㅤ',
  '١',
];

export const awkwardText = (maxLength = 24) => fc.string({ unit: fc.constantFrom(...AWKWARD_CHARS), maxLength });

/** Texts with a known edge: empty, blank, over a limit by one, look-alike values, injection shapes. */
const EDGE_TEXTS = [
  '',
  ' ',
  '   ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udbff\udfff',
  'end\ud83d',
  '\ud83d\ude00',
  'e\u0301',
  '\u202eevil',
  '\ufeffbom',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  'true',
  'false',
  '0',
  '-1',
  '1e309',
  '0x1F',
  '1_000',
  ' 7 ',
  '٣',
  '１２',
  "' OR '1'='1",
  '"; --',
  '1); DROP TABLE events;--',
  '%',
  '%00',
  '%E0%A4%A',
  '../../../etc/passwd',
  '..\\..\\boot.ini',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '9999-12-31',
  '2026-1-1',
  '2026-01-01T00:00:00Z',
  '10000-01-01',
  '0999-12-31',
  'http://',
  'https://',
  'javascript:alert(1)',
  'data:text/html,x',
  '//evil.example',
  'mailto:a@b',
  'a@b',
  '@@',
  'a@example.org',
  'a@example.org, b@example.org',
  ' , a ,, b ,',
  ',,,',
  'trail',
  'NSW',
  'coach',
  'active',
  'pending',
  'Éclair',
  'ǅ',
  'İstanbul',
  'ß',
  '90.000000001',
  '-180',
  '180.123456789',
  '1.',
  '.5',
  '-0',
  '+1',
  '12.345',
  '99999999.99',
  '100000000',
  '1e2',
];

const edgeText = fc.constantFrom(...EDGE_TEXTS);

/** Long text: just over common limits (100, 200, 255, 320, 500, 1000, 2048, 10 000), 16 kB, 1 MB and beyond. */
const bigText = fc.record({
  big: fc.constantFrom('a', 'é', '😀', '\ud800', ',', ' ', '\u0000', 'ab,'),
  times: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(101, 201, 256, 321, 501, 1001, 1025, 2049, 10_001, 16_385, 65_536) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 70_000 }) },
    // Past the 1 MB JSON limit: rare, these are the slow cases.
    { weight: 1, arbitrary: fc.constantFrom(300_000, 1_100_000) },
  ),
}) as fc.Arbitrary<{ big: string; times: number }>;

export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: edgeText },
  { weight: 3, arbitrary: awkwardText() },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

// ---------------------------------------------------------------------------------------------------------
// JSON values

const NUMBER_TEXTS = [
  '0',
  '-0',
  '1',
  '-1',
  '1.5',
  '0.1',
  '1e3',
  '1e309',
  '-1e309',
  '1e-400',
  '4294967295',
  '4294967296',
  '2147483648',
  '9007199254740993',
  '123456789012345678901234567890',
  '1800',
  '2100',
  '99999999.99',
  '100000000',
];

const numberJson: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS).map((n): Json => ({ n })),
  fc.integer().map((n): Json => ({ n: String(n) })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n): Json => ({ n: String(n) })),
);

export const textJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: anyText.map((s): Json => ({ s })) },
  { weight: 1, arbitrary: bigText },
);

/** Keys beyond a schema's own: prototype names, audit fields the API must refuse, empty and long names. */
export const oddKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'id',
    'createdAt',
    'createdBy',
    'updatedAt',
    'totalPayments',
    'totalAdvertisingSpend',
    'wordpressEventId',
    'galleryImages',
    'isAdmin',
    'passwordHash',
    '',
    ' ',
    '$where',
    'a.b',
    'a[0]',
    '\u0000',
  ),
  awkwardText(12),
  fc.constantFrom('k').map((k) => k.repeat(300)),
);

/** Any JSON, weighted to small values; nested containers stay small and the deep ones are symbolic. */
export const anyJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: textJson },
    { weight: 3, arbitrary: numberJson },
    { weight: 1, arbitrary: fc.boolean().map((b): Json => ({ b })) },
    { weight: 1, arbitrary: fc.constant<Json>({ nul: true }) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((a): Json => ({ a })) },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(oddKey, fc.constantFrom('a', 'name', 'value')), tie('value')), { maxLength: 4 })
        .map((o): Json => ({ o })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          deep: fc.oneof(fc.constantFrom(100, 1000, 5000), fc.integer({ min: 2, max: 100_000 })),
          shape: fc.constantFrom('array' as const, 'object' as const),
        })
        .map((d): Json => d),
    },
  ),
})).value;

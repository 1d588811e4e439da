/*
 * fast-check arbitraries for fuzz cases: path parameters, query strings, bodies (from the route models in
 * model.ts), headers and transport. Values stay symbolic (see values.ts) until render.ts builds the bytes.
 */
import fc from 'fast-check';
import { SYNC_KINDS } from '@shared/record-types.js';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import { CONTACT_SORTS, EVENT_FILTERS, RUN_CLUB_TYPE_FILTERS } from '@shared/list-options.js';
import { SORTS } from '@shared/records/sorts.js';
import {
  pageModel,
  paramKindOf,
  DIMENSIONS,
  type AnyCase,
  type Auth,
  type BodyModel,
  type BodySpec,
  type Dimension,
  type Edit,
  type FuzzCase,
  type HeaderSpec,
  type MalformedCase,
  type OriginChoice,
  type ParamKind,
  type PathVariant,
  type Piece,
  type QueryPair,
  type RouteModel,
  type TransportSpec,
} from './model.js';
import { encodeCursor } from '@services/records/cursor.js';
import { multipartBody } from './multipart.js';
import { paramsOf, routeKey, type DeclaredRoute } from './routes.js';
import { fieldValue, hintsOf, plausibleValue, shapeOf } from './schema-fields.js';
import { anyJson, anyText, awkwardText, oddKey, rarely, textJson, type Json } from './values.js';

const s = (value: string): Json => ({ s: value });

// ---------------------------------------------------------------------------------------------------------
// Path parameters

const ID_LITERALS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '01',
  '00001',
  '4294967295',
  '4294967296',
  '999999999999',
  '9999999999999',
  '99999999999999999999',
  'abc',
  '%20',
  '1%20',
  '%00',
  '1%00',
  '%2F',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF',
  '..',
  '%2e%2e',
  '1;1',
  '%D9%A3',
  '%EF%BC%91',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '__proto__',
  'constructor',
  '0x1',
  '%',
  '%%',
  '+1',
  '1,2',
];

const idPiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 12, arbitrary: fc.nat(20).map((existing): Piece => ({ existing })) },
  { weight: 3, arbitrary: fc.constantFrom(...ID_LITERALS).map((raw): Piece => ({ raw })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2_000_000 }).map((n): Piece => ({ raw: String(n) })) },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
  { weight: 1, arbitrary: fc.constantFrom(300, 5000).map((times): Piece => ({ repeat: '9', times })) },
);

const entityTypePiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...RECORD_TYPES).map((raw): Piece => ({ raw })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'contact',
        'file',
        'payment',
        'Event',
        'EVENT',
        'events',
        '__proto__',
        'constructor',
        'hasOwnProperty',
        '%00',
        '%E0%A4%A',
        'event%20',
        'run_clubs',
      )
      .map((raw): Piece => ({ raw })),
  },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const syncKindPiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SYNC_KINDS).map((raw): Piece => ({ raw })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('brands', 'EVENTS', '__proto__', 'constructor', '%00', '%E0%A4%A').map((raw): Piece => ({ raw })),
  },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const audiencePiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('abc123', 'a_b-C', 'x'.repeat(64)).map((raw): Piece => ({ raw })) },
  { weight: 2, arbitrary: fc.constantFrom('x'.repeat(65), '%00', 'a.b', '%E0%A4%A', '..', '__proto__').map((raw): Piece => ({ raw })) },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const listSegmentPiece: fc.Arbitrary<Piece> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].segment), 'contacts').map((raw): Piece => ({ raw })),
  },
  { weight: 2, arbitrary: fc.constantFrom('payments', 'EVENTS', '__proto__', '%00', '%E0%A4%A').map((raw): Piece => ({ raw })) },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const preferenceNamePiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('theme', 'events.view', 'brands.columns', 'contacts.view').map((raw): Piece => ({ raw })) },
  { weight: 2, arbitrary: fc.constantFrom('colour', '__proto__', 'constructor', '%00', 'events.view.x').map((raw): Piece => ({ raw })) },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const PIECES: Record<ParamKind, fc.Arbitrary<Piece>> = {
  id: idPiece,
  entityId: idPiece,
  entityType: entityTypePiece,
  syncKind: syncKindPiece,
  audienceId: audiencePiece,
  listSegment: listSegmentPiece,
  preferenceName: preferenceNamePiece,
};

/** Segments for the catch-all page route (`/*`). */
const splatPiece: fc.Arbitrary<Piece[]> = fc.array(
  fc.oneof(
    fc
      .constantFrom('nope', 'events', 'api', 'assets', '..', '%2e%2e', '%E0%A4%A', '%00', 'a.js', 'favicon.ico', '.env')
      .map((raw): Piece => ({ raw })),
    anyText.map((text): Piece => ({ text })),
  ),
  { minLength: 1, maxLength: 4 },
);

// ---------------------------------------------------------------------------------------------------------
// Query strings

/**
 * List cursors: real ones (newest first and name order, a segment and an id no list has), one with a value of the
 * wrong type, and text that only looks like one (no checksum, a changed checksum, characters a cursor never has).
 */
const CURSOR_PIECES = [
  encodeCursor({ sort: 'newest', dir: 'desc' }, { segment: 0, values: [], id: 5 }),
  encodeCursor({ sort: 'newest', dir: 'asc' }, { segment: 0, values: [], id: 1 }),
  encodeCursor({ sort: 'eventName', dir: 'asc' }, { segment: 0, values: ['Seed event'], id: 2 }),
  encodeCursor({ sort: 'upcoming', dir: 'asc' }, { segment: 2, values: [null], id: 3 }),
  encodeCursor({ sort: 'newest', dir: 'desc' }, { segment: 7, values: [], id: 5 }),
  encodeCursor({ sort: 'newest', dir: 'desc' }, { segment: 0, values: [], id: 4294967296 }),
  encodeCursor({ sort: 'locationState', dir: 'asc' }, { segment: 0, values: [1e308], id: 9 }),
  // The contacts directory's: by name (two values), by email across its NULLs, by a timestamp, one value short.
  encodeCursor({ sort: 'name', dir: 'asc' }, { segment: 0, values: ['Lima', 'Ana'], id: 2 }),
  encodeCursor({ sort: 'email', dir: 'desc' }, { segment: 0, values: [null], id: 3 }),
  encodeCursor({ sort: 'updatedAt', dir: 'desc' }, { segment: 0, values: ['2026-11-21T09:00:00.000Z'], id: 1 }),
  encodeCursor({ sort: 'name', dir: 'asc' }, { segment: 0, values: ['Lima'], id: 2 }),
  'WzEsIm5ld2VzdCIsImRlc2MiLDAsW10sNV0',
  'WzEsIm5ld2VzdCIsImRlc2MiLDAsW10sNV0.AAAAAAAA',
  'e30.AAAAAAAA',
  'bnVsbA.AAAAAAAA',
  '.',
  'a.b.c',
  '%00',
  '%3Cscript%3E',
  '',
];

const NUMBER_PIECES = [
  '0',
  '1',
  '2',
  '24',
  '100',
  '101',
  '-1',
  '1.5',
  '1e2',
  '999999',
  '1000000',
  '999999999',
  '1000000000',
  '',
  '%201',
  '0x10',
  '00000000001',
  'abc',
];

const ALL_SORTS = [...new Set([...Object.values(SORTS), CONTACT_SORTS].flatMap((sorts) => Object.keys(sorts)))];

function queryValue(key: string): fc.Arbitrary<Piece> {
  const raw = (...values: string[]) => fc.constantFrom(...values).map((v): Piece => ({ raw: v }));
  switch (key) {
    case 'q':
      return fc.oneof(
        raw('run', 'Fuzz', '%C3%A9', '%25', '_', '%22a%22', 'it%27s', 'a+b', '', '%0A', 'a%0D%0Ab'),
        // Wildcards and quotes of LIKE and full-text syntax, case folding that changes length, joiners, NUL.
        raw(
          '%25%25%25',
          '___',
          '%27%27%27',
          '*',
          '%2Ba+-b',
          '(a)',
          '%40%40',
          '%C4%B0stanbul',
          'stra%C3%9Fe',
          '%EF%AC%80',
          '%F0%9F%98%80%F0%9F%98%80',
          'e%CC%81e%CC%81',
          '%00%00%00',
          'seed',
          'seed%20event',
        ),
        fc.constantFrom(199, 200, 201, 202, 1000, 5000).map((times): Piece => ({ repeat: 'a', times })),
        fc.constantFrom(100, 101, 201).map((times): Piece => ({ repeat: 'é', times })),
      );
    case 'sort':
      return raw(...ALL_SORTS, 'NAME', 'name%20desc', '-name', '', 'constructor');
    case 'limit':
    case 'offset':
    case 'page':
      return raw(...NUMBER_PIECES);
    case 'after':
    case 'before':
      return raw(...CURSOR_PIECES);
    case 'filter':
      return raw(...EVENT_FILTERS, 'FEATURED', 'none', '');
    case 'type':
      return raw(...RUN_CLUB_TYPE_FILTERS, 'social', 'TRAIL', '');
    case 'entityType':
      return raw(...RECORD_TYPES, 'contact', 'Event', '');
    case 'entityId':
      return fc.oneof(
        fc.nat(20).map((existing): Piece => ({ existing })),
        raw('0', '-1', '4294967296', '99999999999', 'abc', ''),
      );
    case 'kind':
      return raw(...SYNC_KINDS, 'brands', '');
    case 'dir':
      return raw('asc', 'desc', 'ASC', 'up', '');
    case 'ids':
      return raw('1', '1,2,3', '0', '-1', 'a,b', '1,,2', '', '99999999999');
    case 'ownerType':
      return raw(...RECORD_TYPES, 'contact', '');
    case 'primary':
      return raw('true', 'false', 'yes', '');
    case 'tag':
      return raw('vip', '%22', '%25', '');
    case 'download':
      return raw('1', '0', 'true', '');
    case 'return':
      return raw(
        '/events',
        '%2F%2Fevil.example',
        'https%3A%2F%2Fevil.example',
        '%2F%5Cevil.example',
        'javascript%3Aalert(1)',
        '%2Fevents%3Fq%3D%25',
        '',
      );
    default:
      return raw('1', '');
  }
}

const QUERY_JUNK = [
  '%',
  '%z',
  '%E0%A4%A',
  '%ED%A0%80',
  '%00',
  '%C0%AF',
  '%FF',
  '+',
  '%2B',
  '&&',
  '==',
  ';',
  'a;b',
  '%252e',
  '[]',
  '%5B%5D',
];

function queryPairs(keys: readonly string[]): fc.Arbitrary<QueryPair[]> {
  const known = keys.length ? keys : ['q'];
  const pair = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(...known).chain((key) => queryValue(key).map((value): QueryPair => ({ key: { raw: key }, value }))),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        key: fc.constantFrom(...known).map((key): Piece => ({ raw: key })),
        value: fc.oneof(
          fc.constantFrom(...QUERY_JUNK).map((raw): Piece => ({ raw })),
          anyText.map((text): Piece => ({ text })),
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        key: fc.oneof(
          fc
            .constantFrom(
              ...known.map((k) => `${k}[]`),
              ...known.map((k) => `${k}[0]`),
              '__proto__',
              'constructor',
              'toString',
              '',
              '%00',
              'q%5B%5D',
            )
            .map((raw): Piece => ({ raw })),
          awkwardText(8).map((text): Piece => ({ text })),
        ),
        value: fc.constantFrom('1', '', 'x', 'run').map((raw): Piece => ({ raw })),
      }),
    },
  );
  // Distinct keys mostly (a repeated key is refused outright, which would hide what the handler does with it).
  return fc.oneof(
    { weight: keys.length ? 3 : 12, arbitrary: fc.constant<QueryPair[]>([]) },
    { weight: 5, arbitrary: fc.uniqueArray(pair, { maxLength: 3, selector: (p) => JSON.stringify(p.key) }) },
    { weight: 1, arbitrary: fc.array(pair, { maxLength: 6 }) },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Bodies

const NOT_JSON = [
  '',
  '{',
  '{"a":',
  '[1,2,',
  'nul',
  'NaN',
  "{'a':1}",
  '{"a":1,}',
  '\ufeff{}',
  '{"a":1}garbage',
  '1 2',
  '"unterminated',
  'a=b&c=d',
  '<xml/>',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":"\\u00"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '[]',
  '{}',
  '"text"',
  '123',
  'true',
  'null',
  ' ',
  '{"a":1}{"b":2}',
  '{"a":01}',
  '{"a":-}',
  '{"a":1e999999}',
  '\u2028{}',
];

const BYTES = [
  '\xff\xfe{\x00}\x00',
  '\xfe\xff\x00{\x00}',
  '\xef\xbb\xbf{}',
  '{"a":"\xc0\xaf"}',
  '{"a":"\xed\xa0\x80"}',
  '{"a":"\xff"}',
  '\x1f\x8b\x08\x00garbage',
  'PK\x03\x04',
  '\x00\x00\x00\x00',
];

function editsFor(model: Extract<BodyModel, { kind: 'object' }>): fc.Arbitrary<Edit[]> {
  const shape = shapeOf(model.schema);
  const sets = Object.entries(shape).map(([key, field]) =>
    fieldValue(key, hintsOf(field)).map((value): Edit => ({ op: 'set', key, value })),
  );
  const edit = fc.oneof(
    { weight: 8, arbitrary: fc.oneof(...sets) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.keys(shape)).map((key): Edit => ({ op: 'drop', key })) },
    { weight: 2, arbitrary: fc.tuple(oddKey, anyJson).map(([key, value]): Edit => ({ op: 'add', key, value })) },
    // The same key twice: JSON.parse keeps the last, so what is validated may differ from what a proxy saw.
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...Object.keys(shape)), textJson).map(([key, value]): Edit => ({ op: 'add', key, value })),
    },
  );
  // A third of the bodies keep to plausible values, so they mostly pass validation and reach the database.
  const plausible = Object.entries(shape).map(([key, field]) =>
    plausibleValue(key, hintsOf(field)).map((value): Edit => ({ op: 'set', key, value })),
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<Edit[]>([]) },
    { weight: 3, arbitrary: fc.array(fc.oneof(...plausible), { minLength: 1, maxLength: 4 }) },
    { weight: 8, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }) },
  );
}

const IMPORT_COLUMNS = {
  events: ['event_id', 'website', 'Email', 'First Name', 'Last Name', 'Name'],
  brands: ['Brand', 'First Name', 'Last Name', 'Email', 'Current Job'],
};

function importValue(column: string): fc.Arbitrary<Json> {
  const plausible: Record<string, fc.Arbitrary<Json>> = {
    event_id: fc.oneof(
      fc.nat(20).map((pick): Json => ({ id: 'event', pick, text: true })),
      fc.constantFrom('0', '-1', 'abc', '', '99999999999', '1.5').map(s),
    ),
    website: fc.constantFrom('https://example.org', 'example.org', '', 'not a url').map(s),
    Email: fc.constantFrom('a@example.org', 'a@example.org, b@example.org', 'a@example.org;b@example.org', 'bad', '', ' , ').map(s),
    Brand: fc.constantFrom('Fuzz Brand', 'Fuzz Brand ', 'FUZZ BRAND', '').map(s),
  };
  const valueFor = plausible[column] ?? fc.constantFrom('Sam', 'Lee', 'Coach', '').map(s);
  // Rows are all-or-nothing on types (one non-text cell refuses the whole file), so wrong types stay rare.
  return fc.oneof({ weight: 10, arbitrary: valueFor }, { weight: 4, arbitrary: textJson }, { weight: 1, arbitrary: anyJson });
}

function importBody(which: 'events' | 'brands'): fc.Arbitrary<Json> {
  const columns = IMPORT_COLUMNS[which];
  const row = fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constant(columns) }, { weight: 1, arbitrary: fc.subarray(columns, { minLength: 3 }) }),
      fc.array(fc.tuple(oddKey, textJson), { maxLength: 1 }),
    )
    .chain(([keys, extra]) =>
      fc
        .tuple(...keys.map((key) => importValue(key).map((value): [string, Json] => [key, value])))
        .map((entries): Json => ({ o: [...entries, ...extra] })),
    );
  const rows = fc.oneof(
    { weight: 8, arbitrary: fc.array(row, { minLength: 1, maxLength: 5 }) },
    // Many copies of one row: the import's batching and its duplicate handling.
    {
      weight: 1,
      arbitrary: fc.tuple(row, fc.integer({ min: 50, max: 3000 })).map(([one, times]) => Array.from({ length: times }, () => one)),
    },
  );
  return fc.oneof(
    { weight: 8, arbitrary: rows.map((items): Json => ({ o: [['data', { a: items }]] })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          rows,
          fc.oneof(
            fc.constant<Json>({ a: [] }),
            anyJson,
            fc
              .array(
                fc.integer({ min: -1, max: 9 }).map((n): Json => ({ n: String(n) })),
                { maxLength: 5 },
              )
              .map((a): Json => ({ a })),
          ),
        )
        .map(([items, lines]): Json => ({
          o: [
            ['data', { a: items }],
            ['lines', lines],
          ],
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(anyJson, fc.option(fc.tuple(oddKey, anyJson)))
        .map(([data, extra]): Json => ({ o: [['data', data], ...(extra ? [extra] : [])] })),
    },
  );
}

function bodyFor(model: RouteModel, method: string): fc.Arbitrary<BodySpec> {
  const other = fc.oneof(
    { weight: 3, arbitrary: anyJson.map((value): BodySpec => ({ kind: 'json', value })) },
    {
      weight: 3,
      arbitrary: fc.oneof(fc.constantFrom(...NOT_JSON), fc.string({ maxLength: 40 })).map((text): BodySpec => ({ kind: 'text', text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.constantFrom(...BYTES), fc.string({ unit: 'binary-ascii', maxLength: 40 }))
        .map((latin1): BodySpec => ({ kind: 'bytes', latin1 })),
    },
    { weight: 1, arbitrary: multipartBody.map((body): BodySpec => ({ kind: 'multipart', body })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('a=1&b=2', 'eventName=x', '__proto__[x]=1', 'a[b][c]=1', '%', '=&=')
        .map((text): BodySpec => ({ kind: 'form', text })),
    },
  );
  const { body } = model;
  if (body.kind === 'object')
    return fc.oneof(
      { weight: 12, arbitrary: editsFor(body).map((edits): BodySpec => ({ kind: 'edited', edits })) },
      { weight: 3, arbitrary: other },
    );
  if (body.kind === 'import')
    return fc.oneof(
      { weight: 12, arbitrary: importBody(body.which).map((value): BodySpec => ({ kind: 'json', value })) },
      { weight: 3, arbitrary: other },
    );
  if (body.kind === 'upload')
    return fc.oneof(
      { weight: 14, arbitrary: multipartBody.map((mp): BodySpec => ({ kind: 'multipart', body: mp })) },
      { weight: 2, arbitrary: other },
    );
  // Routes without a body: mostly none, sometimes one anyway (a DELETE or POST with JSON, a GET with a body).
  return fc.oneof(
    { weight: method === 'GET' ? 16 : 8, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
    { weight: 2, arbitrary: other },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Headers and transport

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=bogus',
  'APPLICATION/JSON',
  'application/json;;',
  'application/jsonx',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'multipart/mixed; boundary=x',
  '*/*',
  '',
  'application/json, text/plain',
  'application/json; charset="utf-8"',
  'ü/ü',
  'application',
];

const EXTRA_HEADERS: Array<fc.Arbitrary<[string, string]>> = [
  fc
    .constantFrom(
      'en-AU',
      'fr-FR;q=0.9, *',
      'x-invalid-tag',
      'zh-Hant-TW',
      '*',
      'en-US-u-ca-islamic',
      'ar-SA-u-nu-arab',
      'th-TH-u-nu-thai',
      'ja-JP-u-ca-japanese',
      'fa-IR',
      'he-IL-u-ca-hebrew',
      'de-CH-u-nu-latn',
      'a'.repeat(300),
      ',,,',
      'en;q=abc',
      'i-klingon',
      'en-GB-oed',
      'und',
      'root',
      'en-u-hc-h24',
      'en-AU-u-ca-buddhist',
    )
    .map((v): [string, string] => ['Accept-Language', v]),
  fc
    .constantFrom(
      'bytes=0-0',
      'bytes=0-',
      'bytes=-1',
      'bytes=5-2',
      'bytes=0-99999999999',
      'bytes=abc',
      'bytes=0-1,2-3',
      'items=0-1',
      'bytes=-0',
      'bytes=18446744073709551616-',
      'bytes=1-1',
      'bytes=100000-',
    )
    .map((v): [string, string] => ['Range', v]),
  fc.constantFrom('*/*', 'text/html', 'application/json', 'image/png', 'nonsense', '').map((v): [string, string] => ['Accept', v]),
  fc.constantFrom('10.0.0.1', 'unknown', '1.2.3.4, 5.6.7.8', '::1', '').map((v): [string, string] => ['X-Forwarded-For', v]),
  fc.constantFrom('https', 'gopher').map((v): [string, string] => ['X-Forwarded-Proto', v]),
  fc.constantFrom('DELETE', 'PUT').map((v): [string, string] => ['X-HTTP-Method-Override', v]),
  // Node answers any other Expect with 417 itself, so that one is rare.
  fc.constantFrom('100-continue', '100-continue', '100-continue', 'fail').map((v): [string, string] => ['Expect', v]),
  fc.constantFrom('*', '"x"', 'W/"1"').map((v): [string, string] => ['If-None-Match', v]),
  fc.constantFrom('Tue, 01 Jan 2030 00:00:00 GMT', 'yesterday').map((v): [string, string] => ['If-Modified-Since', v]),
  fc.constantFrom('Bearer x', 'Basic Zm9vOmJhcg==', '').map((v): [string, string] => ['Authorization', v]),
  fc.constantFrom('../../x', 'a'.repeat(500), '').map((v): [string, string] => ['X-Request-Id', v]),
];

const TIME_ZONES = [
  'Australia/Sydney',
  'Pacific/Kiritimati',
  'Etc/GMT+12',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Invalid/Zone',
  '%E0%A4%A',
  'UTC',
  '',
  'posixrules',
  'Factory',
  'EST5EDT',
  '+05:30',
  'America/Argentina/ComodRivadavia',
];

const perturbations: fc.Arbitrary<Dimension[]> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Dimension[]>([]) },
  { weight: 5, arbitrary: fc.shuffledSubarray([...DIMENSIONS], { minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.shuffledSubarray([...DIMENSIONS], { minLength: 2, maxLength: 2 }) },
  { weight: 1, arbitrary: fc.shuffledSubarray([...DIMENSIONS], { minLength: 3, maxLength: 6 }) },
);

function headersFor(method: string, model: RouteModel, bent: (d: Dimension) => boolean): fc.Arbitrary<HeaderSpec> {
  const write = method !== 'GET' && method !== 'HEAD';
  return fc
    .record({
      auth: bent('auth') ? fc.constantFrom<Auth>('anonymous', 'anonymous', 'forged') : fc.constant<Auth>('session'),
      origin: !bent('origin')
        ? fc.constant<OriginChoice>(write ? 'same' : 'none')
        : fc.constantFrom<OriginChoice>('same', 'referer', 'none', 'foreign', 'null', 'junk', 'https'),
      contentType: bent('contentType')
        ? fc.oneof(
            { weight: 1, arbitrary: fc.constant({ omit: true as const }) },
            { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((value) => ({ value })) },
          )
        : fc.constant({ auto: true as const }),
      encoding: bent('encoding')
        ? fc.record({
            name: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip', 'GZIP'),
            compress: fc.boolean(),
          })
        : fc.constant(null),
      host: bent('host') ? fc.constantFrom<HeaderSpec['host']>('bare', 'evil', 'junk') : fc.constant<HeaderSpec['host']>('normal'),
      tz: bent('headers') ? rarely(fc.constantFrom(...TIME_ZONES), 2) : fc.constant(null),
      extra: bent('headers')
        ? fc.array(fc.oneof(...EXTRA_HEADERS), { minLength: 1, maxLength: model.body.kind === 'none' ? 3 : 2 })
        : fc.constant<Array<[string, string]>>([]),
    })
    .map(({ encoding, tz, ...rest }) => {
      const spec: HeaderSpec = rest;
      if (encoding) spec.encoding = encoding;
      if (tz !== null) spec.tz = tz;
      return spec;
    });
}

function transportFor(hasBody: boolean, upload: boolean, bent: boolean): fc.Arbitrary<TransportSpec> {
  const plain: TransportSpec = { framing: hasBody ? 'length' : 'none', connection: 'close' };
  // A multipart upload cut short is the classic way to upset a streaming parser: it gets its own share.
  const cut = fc.record({
    perMille: fc.integer({ min: 0, max: 999 }),
    end: fc.constantFrom<'fin' | 'reset'>('fin', 'reset'),
    pauseMs: fc.constantFrom(0, 0, 5, 40),
  });
  if (!bent) return upload && hasBody ? rarely(cut, 5).map((c): TransportSpec => (c ? { ...plain, cut: c } : plain)) : fc.constant(plain);
  return fc.oneof(
    { weight: 4, arbitrary: hasBody ? cut.map((c): TransportSpec => ({ ...plain, cut: c })) : fc.constant(plain) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom<TransportSpec['framing']>('chunked', 'none', hasBody ? 'none' : 'length')
        .map((framing): TransportSpec => ({ ...plain, framing })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('abc', '-1', '1e3', ' 5', '5, 5', '99999999999999999999', '0x10', '0', '1')
        .map((declared): TransportSpec => ({ ...plain, declared })),
    },
    { weight: 1, arbitrary: fc.constant<TransportSpec>({ ...plain, connection: 'keep-alive' }) },
  );
}

/** What a param is when it is not being bent: an existing row, or a valid word. */
const CALM_PIECES: Record<ParamKind, Piece> = {
  id: { existing: 0 },
  entityId: { existing: 0 },
  entityType: { raw: 'event' },
  syncKind: { raw: 'events' },
  audienceId: { raw: 'abc123' },
  listSegment: { raw: 'events' },
  preferenceName: { raw: 'theme' },
};

const calmPiece = (name: string, piece: Piece): Piece =>
  'existing' in piece || ('raw' in piece && paramKindOf(name) === 'entityType' && (RECORD_TYPES as readonly string[]).includes(piece.raw))
    ? piece
    : CALM_PIECES[paramKindOf(name)!];

// ---------------------------------------------------------------------------------------------------------
// Cases

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH'];

function caseFor(route: DeclaredRoute, model: RouteModel): fc.Arbitrary<FuzzCase> {
  const names = paramsOf(route.path);
  const params = fc.tuple(...names.map((name) => PIECES[paramKindOf(name)!].map((piece) => ({ name, piece }))));
  const knownPair = model.query.length
    ? fc.constantFrom(...model.query).chain((key) => queryValue(key).map((value): QueryPair => ({ key: { raw: key }, value })))
    : undefined;
  return perturbations.chain((perturbed) => {
    const bent = (d: Dimension) => perturbed.includes(d);
    const method = bent('method')
      ? fc.constantFrom(...OTHER_METHODS.filter((m) => m !== route.method), route.method === 'GET' ? 'HEAD' : 'OPTIONS')
      : fc.constant(route.method);
    return method.chain((sentMethod) =>
      fc
        .record({
          params: bent('params') ? params : params.map((list) => list.map(({ name, piece }) => ({ name, piece: calmPiece(name, piece) }))),
          splat: splatPiece,
          pathVariant: bent('path')
            ? fc.constantFrom<PathVariant>(
                'trailing-slash',
                'double-slash',
                'upper-case',
                'dot-segment',
                'encoded-slash',
                'matrix',
                'extra-segment',
                'fragment',
              )
            : fc.constant<PathVariant>('as-is'),
          // Unbent, a list gets the parameters a screen would send; bent, anything.
          query: bent('query')
            ? queryPairs(model.query)
            : knownPair
              ? fc.uniqueArray(knownPair, { maxLength: 2, selector: (p) => JSON.stringify(p.key) })
              : fc.constant<QueryPair[]>([]),
          body: bodyFor(model, sentMethod),
          headers: headersFor(sentMethod, model, bent),
        })
        .chain((parts) =>
          transportFor(parts.body.kind !== 'none', model.body.kind === 'upload', bent('transport')).map((transport): FuzzCase => {
            const c: FuzzCase = {
              route: routeKey(route),
              surface: route.surface,
              method: sentMethod,
              params: parts.params,
              pathVariant: parts.pathVariant,
              query: parts.query,
              body: parts.body,
              headers: parts.headers,
              transport,
              perturbed,
            };
            if (route.path.endsWith('*')) c.splat = parts.splat;
            return c;
          }),
        ),
    );
  });
}

const MALFORMED_KINDS = [
  'http-1.0',
  'http-2-line',
  'double-space',
  'lower-method',
  'header-no-colon',
  'space-before-colon',
  'obs-fold',
  'lf-only',
  'nul-in-header',
  'huge-header',
  'many-headers',
  'absolute-form',
  'absolute-form-evil',
  'asterisk',
  'connect',
  'cl-and-te',
  'bad-chunk',
  'no-host',
  'two-hosts',
  'raw-space-in-target',
  'raw-utf8-target',
  'two-content-lengths',
  'te-identity',
  'unknown-method',
];

function malformedFor(route: DeclaredRoute): fc.Arbitrary<MalformedCase> {
  return fc.record({
    malformed: fc.constantFrom(...MALFORMED_KINDS),
    route: fc.constant(routeKey(route)),
    path: fc.constant(route.path.replace(/:\w+/g, '1').replace('*', 'x')),
    auth: fc.boolean(),
  });
}

/** Every route, weighted so writes and the multipart upload get more of the cases than pages do. */
export function fuzzCases(routes: DeclaredRoute[], apiModels: Map<string, RouteModel>): fc.Arbitrary<AnyCase> {
  const weighted = routes.map((route) => {
    const model = route.surface === 'page' ? pageModel() : apiModels.get(routeKey(route));
    if (!model) throw new Error(`No generator for ${routeKey(route)}: add it to apiRouteModels() in test/fuzz/model.ts`);
    const weight = model.body.kind === 'upload' ? 30 : route.surface === 'page' ? 1 : route.method === 'GET' ? 2 : 3;
    return { weight, arbitrary: caseFor(route, model) as fc.Arbitrary<AnyCase> };
  });
  const malformed = { weight: 8, arbitrary: fc.constantFrom(...routes).chain(malformedFor) as fc.Arbitrary<AnyCase> };
  return fc.oneof(...weighted, malformed);
}

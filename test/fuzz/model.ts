import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import fc from 'fast-check';
import type { z } from 'zod';
import { SYNC_KINDS } from '../../src/integrations/wordpress/content-model.js';
import { RECORD_TYPES } from '../../src/services/attachments/owner-types.js';
import { AddMemberSchema } from '../../src/services/integrations/service.js';
import { LoginSchema, NewUserSchema } from '../../src/shared/schemas/auth.js';
import { ContactInputSchema } from '../../src/shared/schemas/contacts.js';
import { PaymentInputSchema } from '../../src/shared/schemas/payments.js';
import { EVENT_FILTERS, RECORD_API_PATHS, RECORD_KINDS, RecordInputSchemas, RUN_CLUB_TYPE_FILTERS, SORTS, type RecordKind } from '../../src/shared/schemas/records.js';
import { contentTypeOf, multipartBody, renderMultipart, showMultipart, type MultipartBody } from './multipart.js';
import { paramsOf, routeKey, type DeclaredRoute } from './routes.js';
import { fieldValue, hintsOf, plausibleValue, shapeOf } from './schema-fields.js';
import { anyJson, anyText, awkwardText, idFrom, oddKey, rarely, renderJson, showJson, textJson, type IdOwner, type IdPools, type Json } from './values.js';
import type { WireRequest } from './wire.js';

// ---------------------------------------------------------------------------------------------------------
// Route models: what each /api route takes. Every declared route needs an entry (a test checks it).

export type BodyModel =
  | { kind: 'none' }
  | { kind: 'object'; schema: z.ZodType; valid: Array<[string, Json]> }
  | { kind: 'import'; which: 'events' | 'brands' }
  | { kind: 'upload' };

export interface RouteModel {
  body: BodyModel;
  /** Query parameters the route reads (others are generated too). */
  query: readonly string[];
}

const LIST_QUERY = ['q', 'sort', 'limit', 'offset', 'filter', 'type'] as const;
const PAGE_QUERY = ['q', 'page', 'filter', 'type', 'return'] as const;

const s = (value: string): Json => ({ s: value });
const owner = (): Json => ({ id: 'owner', pick: 0 });
const none = (query: readonly string[] = []): RouteModel => ({ body: { kind: 'none' }, query });
const object = (schema: z.ZodType, valid: Array<[string, Json]>): RouteModel => ({ body: { kind: 'object', schema, valid }, query: [] });

/** The smallest body each record type accepts: the name fields. */
const VALID_RECORD: Record<RecordKind, Array<[string, Json]>> = {
  event: [['eventName', s('Fuzz Event')]],
  professional: [['businessName', s('Fuzz Physio')]],
  runclub: [['clubName', s('Fuzz Runners')]],
  brand: [['brandName', s('Fuzz Brand')]],
  media: [['mediaName', s('Fuzz Media')]],
  influencer: [
    ['firstName', s('Fuzz')],
    ['lastName', s('Runner')],
  ],
};

export const VALID_CONTACT: Array<[string, Json]> = [
  ['firstName', s('Fuzz')],
  ['lastName', s('Contact')],
  ['entityType', s('event')],
  ['entityId', owner()],
];

export const VALID_PAYMENT: Array<[string, Json]> = [
  ['entityType', s('event')],
  ['entityId', owner()],
  ['description', s('Fuzz payment')],
  ['amount', s('10.00')],
];

export function apiRouteModels(): Map<string, RouteModel> {
  const models = new Map<string, RouteModel>([
    ['POST /api/login', object(LoginSchema, [['email', s('someone@example.org')], ['password', s('not the password')]])],
    ['POST /api/logout', none()],
    ['GET /api/me', none()],
    ['GET /api/session', none()],
    ['POST /api/setup', object(NewUserSchema, [['email', s('second@example.org')], ['password', s('long enough password')], ['firstName', s('Second')], ['lastName', s('Admin')]])],
    ['GET /api/stats', none()],
    ['GET /api/events/:id/wordpress-url', none()],
    ['GET /api/contacts/:id', none()],
    ['GET /api/contacts/:entityType/:entityId', none()],
    ['POST /api/contacts', object(ContactInputSchema, VALID_CONTACT)],
    ['PUT /api/contacts/:id', object(ContactInputSchema, VALID_CONTACT)],
    ['DELETE /api/contacts/:id', none()],
    ['GET /api/payments', none(['entityType', 'entityId', 'limit', 'offset'])],
    ['POST /api/payments', object(PaymentInputSchema, VALID_PAYMENT)],
    ['PUT /api/payments/:id', object(PaymentInputSchema, VALID_PAYMENT)],
    ['DELETE /api/payments/:id', none()],
    ['GET /api/files/:entityType/:entityId', none()],
    ['POST /api/upload', { body: { kind: 'upload' }, query: [] }],
    ['GET /api/uploads/:id', none(['download'])],
    ['DELETE /api/files/:id', none()],
    ['POST /api/events/bulk-import', { body: { kind: 'import', which: 'events' }, query: [] }],
    ['POST /api/brands/bulk-import', { body: { kind: 'import', which: 'brands' }, query: [] }],
    ['GET /api/wordpress/test', none()],
    ['GET /api/wordpress/site-info', none()],
    ['GET /api/mailchimp/test', none()],
    ['GET /api/mailchimp/audiences', none()],
    ['GET /api/integrations/overview', none()],
    ['GET /api/sync/runs', none(['kind', 'limit'])],
    ['POST /api/sync/:kind', none()],
    ['POST /api/mailchimp/audiences/:audienceId/members', object(AddMemberSchema, [['email', s('member@example.org')]])],
  ]);
  for (const kind of RECORD_KINDS) {
    const path = RECORD_API_PATHS[kind];
    models.set(`GET ${path}`, none(LIST_QUERY));
    models.set(`GET ${path}/:id`, none());
    models.set(`POST ${path}`, object(RecordInputSchemas[kind], VALID_RECORD[kind]));
    models.set(`PUT ${path}/:id`, object(RecordInputSchemas[kind], VALID_RECORD[kind]));
    models.set(`DELETE ${path}/:id`, none());
  }
  return models;
}

/** Pages all take the same thing (a GET with list parameters); only their path parameters differ. */
export const pageModel = (): RouteModel => none(PAGE_QUERY);

// ---------------------------------------------------------------------------------------------------------
// Path parameters

/** Which seeded rows an id parameter refers to: from its name, else from the path segment before it. */
const OWNER_BY_PARAM: Record<string, IdOwner> = { eventId: 'event', professionalId: 'professional', runClubId: 'runclub', brandId: 'brand', mediaId: 'media', contactId: 'contact' };
const OWNER_BY_SEGMENT: Record<string, IdOwner> = {
  events: 'event',
  professionals: 'professional',
  runclubs: 'runclub',
  brands: 'brand',
  media: 'media',
  influencers: 'influencer',
  contacts: 'contact',
  payments: 'payment',
  files: 'file',
  uploads: 'file',
};

export type ParamKind = 'id' | 'entityId' | 'entityType' | 'syncKind' | 'audienceId';
const PARAM_KINDS: Record<string, ParamKind> = {
  id: 'id',
  eventId: 'id',
  professionalId: 'id',
  runClubId: 'id',
  brandId: 'id',
  mediaId: 'id',
  contactId: 'id',
  entityId: 'entityId',
  entityType: 'entityType',
  kind: 'syncKind',
  audienceId: 'audienceId',
};
export const paramKindOf = (name: string): ParamKind | undefined => PARAM_KINDS[name];

function ownerOfParam(pattern: string, name: string): IdOwner | undefined {
  if (OWNER_BY_PARAM[name]) return OWNER_BY_PARAM[name];
  const segments = pattern.split('/');
  const at = segments.indexOf(`:${name}`);
  return at > 0 ? OWNER_BY_SEGMENT[segments[at - 1]!] : undefined;
}

/** A path or query value: an existing row's id, text sent verbatim (may be broken %-encoding), or text to encode. */
export type Piece = { existing: number } | { raw: string } | { text: string } | { repeat: string; times: number };

const ID_LITERALS = [
  '0', '-1', '1.5', '1e3', '01', '00001', '4294967295', '4294967296', '999999999999', '9999999999999', '99999999999999999999', 'abc', '%20', '1%20',
  '%00', '1%00', '%2F', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF', '..', '%2e%2e', '1;1', '%D9%A3', '%EF%BC%91', 'null', 'undefined', 'NaN', 'Infinity',
  '__proto__', 'constructor', '0x1', '%', '%%', '+1', '1,2',
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
  { weight: 2, arbitrary: fc.constantFrom('contact', 'file', 'payment', 'Event', 'EVENT', 'events', '__proto__', 'constructor', 'hasOwnProperty', '%00', '%E0%A4%A', 'event%20', 'run_clubs').map((raw): Piece => ({ raw })) },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const syncKindPiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SYNC_KINDS).map((raw): Piece => ({ raw })) },
  { weight: 2, arbitrary: fc.constantFrom('brands', 'EVENTS', '__proto__', 'constructor', '%00', '%E0%A4%A').map((raw): Piece => ({ raw })) },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const audiencePiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('abc123', 'a_b-C', 'x'.repeat(64)).map((raw): Piece => ({ raw })) },
  { weight: 2, arbitrary: fc.constantFrom('x'.repeat(65), '%00', 'a.b', '%E0%A4%A', '..', '__proto__').map((raw): Piece => ({ raw })) },
  { weight: 1, arbitrary: anyText.map((text): Piece => ({ text })) },
);

const PIECES: Record<ParamKind, fc.Arbitrary<Piece>> = { id: idPiece, entityId: idPiece, entityType: entityTypePiece, syncKind: syncKindPiece, audienceId: audiencePiece };

/** Segments for the catch-all page route (`/*`). */
const splatPiece: fc.Arbitrary<Piece[]> = fc.array(
  fc.oneof(fc.constantFrom('nope', 'events', 'api', 'assets', '..', '%2e%2e', '%E0%A4%A', '%00', 'a.js', 'favicon.ico', '.env').map((raw): Piece => ({ raw })), anyText.map((text): Piece => ({ text }))),
  { minLength: 1, maxLength: 4 },
);

/** Percent-encodes UTF-8 bytes except unreserved characters (a lone surrogate goes as U+FFFD, as encoders do). */
export const encode = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

function renderPiece(piece: Piece, pools: IdPools, idOwner: IdOwner): string {
  if ('existing' in piece) return String(idFrom(pools, idOwner, piece.existing));
  if ('raw' in piece) return piece.raw;
  if ('repeat' in piece) return encode(piece.repeat.repeat(piece.times));
  return encode(piece.text);
}

function showPiece(piece: Piece, idOwner: string): string {
  if ('existing' in piece) return `<id of ${idOwner} #${piece.existing}>`;
  if ('raw' in piece) return piece.raw;
  if ('repeat' in piece) return `<${JSON.stringify(piece.repeat)} x ${piece.times}>`;
  return `<text ${JSON.stringify(piece.text)}>`;
}

// ---------------------------------------------------------------------------------------------------------
// Query strings

export interface QueryPair {
  key: Piece;
  value: Piece;
}

const NUMBER_PIECES = ['0', '1', '2', '24', '100', '101', '-1', '1.5', '1e2', '999999', '1000000', '999999999', '1000000000', '', '%201', '0x10', '00000000001', 'abc'];
const ALL_SORTS = [...new Set(Object.values(SORTS).flat())];

function queryValue(key: string): fc.Arbitrary<Piece> {
  const raw = (...values: string[]) => fc.constantFrom(...values).map((v): Piece => ({ raw: v }));
  switch (key) {
    case 'q':
      return fc.oneof(
        raw('run', 'Fuzz', '%C3%A9', '%25', '_', '%22a%22', 'it%27s', 'a+b', '', '%0A', 'a%0D%0Ab'),
        fc.constantFrom(199, 200, 201, 202, 1000, 5000).map((times): Piece => ({ repeat: 'a', times })),
        fc.constantFrom(100, 101, 201).map((times): Piece => ({ repeat: 'é', times })),
      );
    case 'sort':
      return raw(...ALL_SORTS, 'NAME', 'name%20desc', '-name', '', 'constructor');
    case 'limit':
    case 'offset':
    case 'page':
      return raw(...NUMBER_PIECES);
    case 'filter':
      return raw(...EVENT_FILTERS, 'FEATURED', 'none', '');
    case 'type':
      return raw(...RUN_CLUB_TYPE_FILTERS, 'social', 'TRAIL', '');
    case 'entityType':
      return raw(...RECORD_TYPES, 'contact', 'Event', '');
    case 'entityId':
      return fc.oneof(fc.nat(20).map((existing): Piece => ({ existing })), raw('0', '-1', '4294967296', '99999999999', 'abc', ''));
    case 'kind':
      return raw(...SYNC_KINDS, 'brands', '');
    case 'download':
      return raw('1', '0', 'true', '');
    case 'return':
      return raw('/events', '%2F%2Fevil.example', 'https%3A%2F%2Fevil.example', '%2F%5Cevil.example', 'javascript%3Aalert(1)', '%2Fevents%3Fq%3D%25', '');
    default:
      return raw('1', '');
  }
}

const QUERY_JUNK = ['%', '%z', '%E0%A4%A', '%ED%A0%80', '%00', '%C0%AF', '%FF', '+', '%2B', '&&', '==', ';', 'a;b', '%252e', '[]', '%5B%5D'];

function queryPairs(keys: readonly string[]): fc.Arbitrary<QueryPair[]> {
  const known = keys.length ? keys : ['q'];
  const pair = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...known).chain((key) => queryValue(key).map((value): QueryPair => ({ key: { raw: key }, value }))) },
    { weight: 2, arbitrary: fc.record({ key: fc.constantFrom(...known).map((key): Piece => ({ raw: key })), value: fc.oneof(fc.constantFrom(...QUERY_JUNK).map((raw): Piece => ({ raw })), anyText.map((text): Piece => ({ text }))) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        key: fc.oneof(fc.constantFrom(...known.map((k) => `${k}[]`), ...known.map((k) => `${k}[0]`), '__proto__', 'constructor', 'toString', '', '%00', 'q%5B%5D').map((raw): Piece => ({ raw })), awkwardText(8).map((text): Piece => ({ text }))),
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

export type Edit = { op: 'set'; key: string; value: Json } | { op: 'drop'; key: string } | { op: 'add'; key: string; value: Json };

export type BodySpec =
  | { kind: 'none' }
  /** The route's model body (a valid baseline) after a few edits. */
  | { kind: 'edited'; edits: Edit[] }
  | { kind: 'json'; value: Json }
  /** Text that is (usually) not JSON. */
  | { kind: 'text'; text: string }
  /** Bytes given as latin1 text: invalid UTF-8, UTF-16, binary. */
  | { kind: 'bytes'; latin1: string }
  | { kind: 'multipart'; body: MultipartBody }
  | { kind: 'form'; text: string };

const NOT_JSON = ['', '{', '{"a":', '[1,2,', 'nul', 'NaN', "{'a':1}", '{"a":1,}', '\ufeff{}', '{"a":1}garbage', '1 2', '"unterminated', 'a=b&c=d', '<xml/>', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u00"}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '[]', '{}', '"text"', '123', 'true', 'null', ' ', '{"a":1}{"b":2}', '{"a":01}', '{"a":-}', '{"a":1e999999}', '\u2028{}'];
const BYTES = ['\xff\xfe{\x00}\x00', '\xfe\xff\x00{\x00}', '\xef\xbb\xbf{}', '{"a":"\xc0\xaf"}', '{"a":"\xed\xa0\x80"}', '{"a":"\xff"}', '\x1f\x8b\x08\x00garbage', 'PK\x03\x04', '\x00\x00\x00\x00'];

function editsFor(model: Extract<BodyModel, { kind: 'object' }>): fc.Arbitrary<Edit[]> {
  const shape = shapeOf(model.schema);
  const sets = Object.entries(shape).map(([key, field]) => fieldValue(key, hintsOf(field)).map((value): Edit => ({ op: 'set', key, value })));
  const edit = fc.oneof(
    { weight: 8, arbitrary: fc.oneof(...sets) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.keys(shape)).map((key): Edit => ({ op: 'drop', key })) },
    { weight: 2, arbitrary: fc.tuple(oddKey, anyJson).map(([key, value]): Edit => ({ op: 'add', key, value })) },
    // The same key twice: JSON.parse keeps the last, so what is validated may differ from what a proxy saw.
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...Object.keys(shape)), textJson).map(([key, value]): Edit => ({ op: 'add', key, value })) },
  );
  // A third of the bodies keep to plausible values, so they mostly pass validation and reach the database.
  const plausible = Object.entries(shape).map(([key, field]) => plausibleValue(key, hintsOf(field)).map((value): Edit => ({ op: 'set', key, value })));
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
    event_id: fc.oneof(fc.nat(20).map((pick): Json => ({ id: 'event', pick, text: true })), fc.constantFrom('0', '-1', 'abc', '', '99999999999', '1.5').map(s)),
    website: fc.constantFrom('https://example.org', 'example.org', '', 'not a url').map(s),
    Email: fc.constantFrom('a@example.org', 'a@example.org, b@example.org', 'a@example.org;b@example.org', 'bad', '', ' , ').map(s),
    Brand: fc.constantFrom('Fuzz Brand', 'Fuzz Brand ', 'FUZZ BRAND', '').map(s),
  };
  const valueFor = plausible[column] ?? fc.constantFrom('Sam', 'Lee', 'Coach', '').map(s);
  return fc.oneof({ weight: 6, arbitrary: valueFor }, { weight: 2, arbitrary: textJson }, { weight: 1, arbitrary: anyJson });
}

function importBody(which: 'events' | 'brands'): fc.Arbitrary<Json> {
  const columns = IMPORT_COLUMNS[which];
  const row = fc
    .tuple(fc.subarray(columns, { minLength: Math.min(columns.length, 3) }), fc.array(fc.tuple(oddKey, textJson), { maxLength: 1 }))
    .chain(([keys, extra]) => fc.tuple(...keys.map((key) => importValue(key).map((value): [string, Json] => [key, value]))).map((entries): Json => ({ o: [...entries, ...extra] })));
  const rows = fc.oneof(
    { weight: 8, arbitrary: fc.array(row, { minLength: 1, maxLength: 5 }) },
    // Many copies of one row: the import's batching and its duplicate handling.
    { weight: 1, arbitrary: fc.tuple(row, fc.integer({ min: 50, max: 3000 })).map(([one, times]) => Array.from({ length: times }, () => one)) },
  );
  return fc.oneof(
    { weight: 8, arbitrary: rows.map((items): Json => ({ o: [['data', { a: items }]] })) },
    {
      weight: 2,
      arbitrary: fc.tuple(rows, fc.oneof(fc.constant<Json>({ a: [] }), anyJson, fc.array(fc.integer({ min: -1, max: 9 }).map((n): Json => ({ n: String(n) })), { maxLength: 5 }).map((a): Json => ({ a })))).map(
        ([items, lines]): Json => ({ o: [['data', { a: items }], ['lines', lines]] }),
      ),
    },
    { weight: 2, arbitrary: fc.tuple(anyJson, fc.option(fc.tuple(oddKey, anyJson))).map(([data, extra]): Json => ({ o: [['data', data], ...(extra ? [extra] : [])] })) },
  );
}

function bodyFor(model: RouteModel, method: string): fc.Arbitrary<BodySpec> {
  const other = fc.oneof(
    { weight: 3, arbitrary: anyJson.map((value): BodySpec => ({ kind: 'json', value })) },
    { weight: 3, arbitrary: fc.oneof(fc.constantFrom(...NOT_JSON), fc.string({ maxLength: 40 })).map((text): BodySpec => ({ kind: 'text', text })) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...BYTES), fc.string({ unit: 'binary-ascii', maxLength: 40 })).map((latin1): BodySpec => ({ kind: 'bytes', latin1 })) },
    { weight: 1, arbitrary: multipartBody.map((body): BodySpec => ({ kind: 'multipart', body })) },
    { weight: 1, arbitrary: fc.constantFrom('a=1&b=2', 'eventName=x', '__proto__[x]=1', 'a[b][c]=1', '%', '=&=').map((text): BodySpec => ({ kind: 'form', text })) },
  );
  const { body } = model;
  if (body.kind === 'object') return fc.oneof({ weight: 12, arbitrary: editsFor(body).map((edits): BodySpec => ({ kind: 'edited', edits })) }, { weight: 3, arbitrary: other });
  if (body.kind === 'import') return fc.oneof({ weight: 12, arbitrary: importBody(body.which).map((value): BodySpec => ({ kind: 'json', value })) }, { weight: 3, arbitrary: other });
  if (body.kind === 'upload') return fc.oneof({ weight: 14, arbitrary: multipartBody.map((mp): BodySpec => ({ kind: 'multipart', body: mp })) }, { weight: 2, arbitrary: other });
  // Routes without a body: mostly none, sometimes one anyway (a DELETE or POST with JSON, a GET with a body).
  return fc.oneof({ weight: method === 'GET' ? 16 : 8, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) }, { weight: 2, arbitrary: other });
}

// ---------------------------------------------------------------------------------------------------------
// Headers and transport

export type Auth = 'session' | 'anonymous' | 'forged';
export type OriginChoice = 'same' | 'referer' | 'none' | 'foreign' | 'null' | 'junk' | 'https';

export interface HeaderSpec {
  auth: Auth;
  origin: OriginChoice;
  /** 'auto' matches the body; otherwise sent as given, or left out. */
  contentType: { auto: true } | { omit: true } | { value: string };
  encoding?: { name: string; compress: boolean };
  host: 'normal' | 'bare' | 'evil' | 'junk';
  /** A time zone cookie next to the session, as the browser sends it. */
  tz?: string;
  extra: Array<[string, string]>;
}

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset=bogus', 'APPLICATION/JSON',
  'application/json;;', 'application/jsonx', 'application/vnd.api+json', 'application/merge-patch+json', 'text/plain', 'text/json', 'application/x-www-form-urlencoded',
  'multipart/form-data', 'multipart/form-data; boundary=x', 'multipart/mixed; boundary=x', '*/*', '', 'application/json, text/plain', 'application/json; charset="utf-8"', 'ü/ü', 'application',
];

const EXTRA_HEADERS: Array<fc.Arbitrary<[string, string]>> = [
  fc
    .constantFrom('en-AU', 'fr-FR;q=0.9, *', 'x-invalid-tag', 'zh-Hant-TW', '*', 'en-US-u-ca-islamic', 'ar-SA-u-nu-arab', 'th-TH-u-nu-thai', 'ja-JP-u-ca-japanese', 'fa-IR', 'he-IL-u-ca-hebrew', 'de-CH-u-nu-latn', 'a'.repeat(300), ',,,', 'en;q=abc', 'i-klingon', 'en-GB-oed', 'und', 'root', 'en-u-hc-h24', 'en-AU-u-ca-buddhist')
    .map((v): [string, string] => ['Accept-Language', v]),
  fc.constantFrom('bytes=0-0', 'bytes=0-', 'bytes=-1', 'bytes=5-2', 'bytes=0-99999999999', 'bytes=abc', 'bytes=0-1,2-3', 'items=0-1', 'bytes=-0', 'bytes=18446744073709551616-', 'bytes=1-1', 'bytes=100000-').map((v): [string, string] => ['Range', v]),
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

const TIME_ZONES = ['Australia/Sydney', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Asia/Kathmandu', 'America/St_Johns', 'Invalid/Zone', '%E0%A4%A', 'UTC', '', 'posixrules', 'Factory', 'EST5EDT', '+05:30', 'America/Argentina/ComodRivadavia'];

export interface TransportSpec {
  framing: 'length' | 'chunked' | 'none';
  /** A wrong Content-Length (sent instead of the real one). */
  declared?: string;
  /** Send only this share (per mille) of the body, then end or reset the connection. */
  cut?: { perMille: number; end: 'fin' | 'reset'; pauseMs: number };
  connection: 'close' | 'keep-alive';
}

/** Path spellings Express may route differently from the canonical one. */
export type PathVariant = 'as-is' | 'trailing-slash' | 'double-slash' | 'upper-case' | 'dot-segment' | 'encoded-slash' | 'matrix' | 'extra-segment' | 'fragment';

// ---------------------------------------------------------------------------------------------------------
// Cases

/**
 * The ways a request can be bent. Each case bends only a few of them and keeps the rest well-formed, so most cases
 * get past the session, origin and content-type checks to the handler, and a shrunk counterexample names only the
 * dimensions that matter. (The body is always generated: it is what most handlers are about.)
 */
export const DIMENSIONS = ['method', 'path', 'params', 'query', 'auth', 'origin', 'contentType', 'encoding', 'host', 'headers', 'transport'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

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
      origin: !bent('origin') ? fc.constant<OriginChoice>(write ? 'same' : 'none') : fc.constantFrom<OriginChoice>('same', 'referer', 'none', 'foreign', 'null', 'junk', 'https'),
      contentType: bent('contentType')
        ? fc.oneof({ weight: 1, arbitrary: fc.constant({ omit: true as const }) }, { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((value) => ({ value })) })
        : fc.constant({ auto: true as const }),
      encoding: bent('encoding') ? fc.record({ name: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip', 'GZIP'), compress: fc.boolean() }) : fc.constant(null),
      host: bent('host') ? fc.constantFrom<HeaderSpec['host']>('bare', 'evil', 'junk') : fc.constant<HeaderSpec['host']>('normal'),
      tz: bent('headers') ? rarely(fc.constantFrom(...TIME_ZONES), 2) : fc.constant(null),
      extra: bent('headers') ? fc.array(fc.oneof(...EXTRA_HEADERS), { minLength: 1, maxLength: model.body.kind === 'none' ? 3 : 2 }) : fc.constant<Array<[string, string]>>([]),
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
  const cut = fc.record({ perMille: fc.integer({ min: 0, max: 999 }), end: fc.constantFrom<'fin' | 'reset'>('fin', 'reset'), pauseMs: fc.constantFrom(0, 0, 5, 40) });
  if (!bent) return upload && hasBody ? rarely(cut, 5).map((c): TransportSpec => (c ? { ...plain, cut: c } : plain)) : fc.constant(plain);
  return fc.oneof(
    { weight: 4, arbitrary: hasBody ? cut.map((c): TransportSpec => ({ ...plain, cut: c })) : fc.constant(plain) },
    { weight: 2, arbitrary: fc.constantFrom<TransportSpec['framing']>('chunked', 'none', hasBody ? 'none' : 'length').map((framing): TransportSpec => ({ ...plain, framing })) },
    { weight: 1, arbitrary: fc.constantFrom('abc', '-1', '1e3', ' 5', '5, 5', '99999999999999999999', '0x10', '0', '1').map((declared): TransportSpec => ({ ...plain, declared })) },
    { weight: 1, arbitrary: fc.constant<TransportSpec>({ ...plain, connection: 'keep-alive' }) },
  );
}

/** What a param is when it is not being bent: an existing row, or a valid word. */
const CALM_PIECES: Record<ParamKind, Piece> = { id: { existing: 0 }, entityId: { existing: 0 }, entityType: { raw: 'event' }, syncKind: { raw: 'events' }, audienceId: { raw: 'abc123' } };

const calmPiece = (name: string, piece: Piece): Piece => ('existing' in piece || ('raw' in piece && paramKindOf(name) === 'entityType' && (RECORD_TYPES as readonly string[]).includes(piece.raw)) ? piece : CALM_PIECES[paramKindOf(name)!]);

export interface FuzzCase {
  route: string;
  surface: DeclaredRoute['surface'];
  /** The method sent: the route's own, or (rarely) another. */
  method: string;
  params: Array<{ name: string; piece: Piece }>;
  splat?: Piece[];
  pathVariant: PathVariant;
  query: QueryPair[];
  body: BodySpec;
  headers: HeaderSpec;
  transport: TransportSpec;
  /** The dimensions this case bends; every other one is what a well-behaved browser would send. */
  perturbed: Dimension[];
}

/** A request line or head that is broken as HTTP (the Node parser should refuse it; the server must survive). */
export interface MalformedCase {
  malformed: string;
  route: string;
  path: string;
  auth: boolean;
}

export type AnyCase = FuzzCase | MalformedCase;
export const isMalformed = (c: AnyCase): c is MalformedCase => 'malformed' in c;

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH'];

function caseFor(route: DeclaredRoute, model: RouteModel): fc.Arbitrary<FuzzCase> {
  const names = paramsOf(route.path);
  const params = fc.tuple(...names.map((name) => PIECES[paramKindOf(name)!].map((piece) => ({ name, piece }))));
  const knownPair = model.query.length ? fc.constantFrom(...model.query).chain((key) => queryValue(key).map((value): QueryPair => ({ key: { raw: key }, value }))) : undefined;
  return perturbations.chain((perturbed) => {
    const bent = (d: Dimension) => perturbed.includes(d);
    const method = bent('method') ? fc.constantFrom(...OTHER_METHODS.filter((m) => m !== route.method), route.method === 'GET' ? 'HEAD' : 'OPTIONS') : fc.constant(route.method);
    return method.chain((sentMethod) =>
      fc
        .record({
          params: bent('params') ? params : params.map((list) => list.map(({ name, piece }) => ({ name, piece: calmPiece(name, piece) }))),
          splat: splatPiece,
          pathVariant: bent('path')
            ? fc.constantFrom<PathVariant>('trailing-slash', 'double-slash', 'upper-case', 'dot-segment', 'encoded-slash', 'matrix', 'extra-segment', 'fragment')
            : fc.constant<PathVariant>('as-is'),
          // Unbent, a list gets the parameters a screen would send; bent, anything.
          query: bent('query') ? queryPairs(model.query) : knownPair ? fc.uniqueArray(knownPair, { maxLength: 2, selector: (p) => JSON.stringify(p.key) }) : fc.constant<QueryPair[]>([]),
          body: bodyFor(model, sentMethod),
          headers: headersFor(sentMethod, model, bent),
        })
        .chain((parts) =>
          transportFor(parts.body.kind !== 'none', model.body.kind === 'upload', bent('transport')).map((transport): FuzzCase => {
            const c: FuzzCase = { route: routeKey(route), surface: route.surface, method: sentMethod, params: parts.params, pathVariant: parts.pathVariant, query: parts.query, body: parts.body, headers: parts.headers, transport, perturbed };
            if (route.path.endsWith('*')) c.splat = parts.splat;
            return c;
          }),
        ),
    );
  });
}

const MALFORMED_KINDS = [
  'http-1.0', 'http-2-line', 'double-space', 'lower-method', 'header-no-colon', 'space-before-colon', 'obs-fold', 'lf-only', 'nul-in-header', 'huge-header',
  'many-headers', 'absolute-form', 'absolute-form-evil', 'asterisk', 'connect', 'cl-and-te', 'bad-chunk', 'no-host', 'two-hosts', 'raw-space-in-target',
  'raw-utf8-target', 'two-content-lengths', 'te-identity', 'unknown-method',
];

function malformedFor(route: DeclaredRoute): fc.Arbitrary<MalformedCase> {
  return fc.record({ malformed: fc.constantFrom(...MALFORMED_KINDS), route: fc.constant(routeKey(route)), path: fc.constant(route.path.replace(/:\w+/g, '1').replace('*', 'x')), auth: fc.boolean() });
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

// ---------------------------------------------------------------------------------------------------------
// Rendering a case into bytes

export interface Session {
  /** The Cookie header value that signs in (pacer=…; pacer.sig=…). */
  cookie: string;
}

export interface BuildEnv {
  port: number;
  pools: IdPools;
  session: Session;
}

const FORGED_COOKIE = 'pacer=eyJ1aWQiOjEsInZlciI6MCwiaWF0IjoxLCJsYXN0IjoxfQ==; pacer.sig=forged';

function applyEdits(valid: Array<[string, Json]>, edits: Edit[]): Array<[string, Json]> {
  let entries = [...valid];
  for (const edit of edits) {
    if (edit.op === 'drop') entries = entries.filter(([key]) => key !== edit.key);
    else if (edit.op === 'add') entries.push([edit.key, edit.value]);
    else {
      const at = entries.findIndex(([key]) => key === edit.key);
      if (at === -1) entries.push([edit.key, edit.value]);
      else entries[at] = [edit.key, edit.value];
    }
  }
  return entries;
}

/** The entityType a body names (so an owner id refers to a row of that type). */
function ownerTypeOf(entries: Array<[string, Json]>): IdOwner {
  const type = entries.find(([key]) => key === 'entityType')?.[1];
  return type && 's' in type && (RECORD_TYPES as readonly string[]).includes(type.s) ? (type.s as IdOwner) : 'event';
}

function modelOf(c: FuzzCase, apiModels: Map<string, RouteModel>): RouteModel {
  return c.surface === 'page' ? pageModel() : (apiModels.get(c.route) ?? none());
}

function bodyBytes(c: FuzzCase, env: BuildEnv, apiModels: Map<string, RouteModel>): { bytes: Buffer; contentType: string | undefined } {
  const body = c.body;
  switch (body.kind) {
    case 'none':
      return { bytes: Buffer.alloc(0), contentType: undefined };
    case 'edited': {
      const model = modelOf(c, apiModels).body;
      const entries = applyEdits(model.kind === 'object' ? model.valid : [], body.edits);
      return { bytes: Buffer.from(renderJson({ o: entries }, { pools: env.pools, ownerType: ownerTypeOf(entries) })), contentType: 'application/json' };
    }
    case 'json': {
      const ownerType = 'o' in body.value ? ownerTypeOf(body.value.o) : 'event';
      return { bytes: Buffer.from(renderJson(body.value, { pools: env.pools, ownerType })), contentType: 'application/json' };
    }
    case 'text':
      return { bytes: Buffer.from(body.text, 'utf8'), contentType: 'application/json' };
    case 'bytes':
      return { bytes: Buffer.from(body.latin1, 'latin1'), contentType: 'application/json' };
    case 'multipart':
      return { bytes: renderMultipart(body.body, env.pools), contentType: contentTypeOf(body.body) };
    case 'form':
      return { bytes: Buffer.from(body.text), contentType: 'application/x-www-form-urlencoded' };
  }
}

function pathOf(c: FuzzCase, env: BuildEnv): string {
  const pattern = c.route.slice(c.route.indexOf(' ') + 1);
  const entityTypeParam = c.params.find((p) => p.name === 'entityType')?.piece;
  const entityOwner: IdOwner = entityTypeParam && 'raw' in entityTypeParam && (RECORD_TYPES as readonly string[]).includes(entityTypeParam.raw) ? (entityTypeParam.raw as IdOwner) : 'event';
  let path = pattern;
  for (const { name, piece } of c.params) {
    const idOwner = name === 'entityId' ? entityOwner : (ownerOfParam(pattern, name) ?? 'event');
    path = path.replace(`:${name}`, renderPiece(piece, env.pools, idOwner));
  }
  if (path.endsWith('*')) path = path.slice(0, -1) + (c.splat ?? [{ raw: 'x' }]).map((piece) => renderPiece(piece, env.pools, 'event')).join('/');
  switch (c.pathVariant) {
    case 'as-is':
      return path;
    case 'trailing-slash':
      return `${path}/`;
    case 'double-slash':
      return path.replace(/\//g, '//');
    case 'upper-case':
      return path.toUpperCase();
    case 'dot-segment':
      return path.replace(/\/([^/]+)$/, '/./x/../$1');
    case 'encoded-slash':
      return path.replace(/\/([^/]+)$/, '%2F$1');
    case 'matrix':
      return `${path};a=1`;
    case 'extra-segment':
      return `${path}/extra`;
    case 'fragment':
      return `${path}#frag`;
  }
}

function queryOf(c: FuzzCase, env: BuildEnv): string {
  if (!c.query.length) return '';
  return `?${c.query.map(({ key, value }) => `${renderPiece(key, env.pools, 'event')}=${renderPiece(value, env.pools, 'event')}`).join('&')}`;
}

function compress(bytes: Buffer, name: string): Buffer {
  const encoding = name.toLowerCase();
  if (encoding === 'gzip') return gzipSync(bytes);
  if (encoding === 'deflate') return deflateSync(bytes);
  if (encoding === 'br') return brotliCompressSync(bytes);
  return bytes;
}

function cookieFor(auth: Auth | boolean, env: BuildEnv, tz: string | undefined): string | undefined {
  const parts: string[] = [];
  if (auth === 'session' || auth === true) parts.push(env.session.cookie);
  if (auth === 'forged') parts.push(FORGED_COOKIE);
  if (tz !== undefined) parts.push(`tz=${encode(tz)}`);
  return parts.length ? parts.join('; ') : undefined;
}

export function buildRequest(c: AnyCase, env: BuildEnv, apiModels: Map<string, RouteModel>): WireRequest {
  if (isMalformed(c)) return buildMalformed(c, env);
  const host = `127.0.0.1:${env.port}`;
  const hostHeader = { normal: host, bare: '127.0.0.1', evil: 'evil.example', junk: 'a b' }[c.headers.host];
  const origin = `http://${hostHeader}`;
  const headers: Array<[string, string]> = [['Host', hostHeader]];
  const cookie = cookieFor(c.headers.auth, env, c.headers.tz);
  if (cookie) headers.push(['Cookie', cookie]);
  const originHeader: Record<OriginChoice, [string, string] | undefined> = {
    same: ['Origin', origin],
    referer: ['Referer', `${origin}/events?x=1`],
    none: undefined,
    foreign: ['Origin', 'http://evil.example'],
    null: ['Origin', 'null'],
    junk: ['Origin', '::::'],
    https: ['Origin', `https://${hostHeader}`],
  };
  const chosenOrigin = originHeader[c.headers.origin];
  if (chosenOrigin) headers.push(chosenOrigin);

  let { bytes, contentType } = bodyBytes(c, env, apiModels);
  if ('value' in c.headers.contentType) contentType = c.headers.contentType.value;
  if ('omit' in c.headers.contentType) contentType = undefined;
  if (contentType !== undefined && (bytes.length > 0 || c.body.kind !== 'none')) headers.push(['Content-Type', contentType]);
  if (c.headers.encoding && bytes.length) {
    if (c.headers.encoding.compress) bytes = compress(bytes, c.headers.encoding.name);
    headers.push(['Content-Encoding', c.headers.encoding.name]);
  }
  headers.push(...c.headers.extra);
  headers.push(['Connection', c.transport.connection]);

  const framing: WireRequest['framing'] =
    c.transport.declared !== undefined ? { kind: 'declared', length: c.transport.declared } : c.transport.framing === 'chunked' ? { kind: 'chunked', chunks: 3 } : c.transport.framing === 'length' || bytes.length ? { kind: 'length' } : { kind: 'none' };
  const request: WireRequest = { method: c.method, target: pathOf(c, env) + queryOf(c, env), headers, body: bytes, framing };
  if (c.transport.framing === 'none' && bytes.length && c.transport.declared === undefined) request.framing = { kind: 'none' };
  if (c.transport.cut && bytes.length) request.cut = { at: Math.floor((bytes.length * c.transport.cut.perMille) / 1000), end: c.transport.cut.end, pauseMs: c.transport.cut.pauseMs };
  // A Content-Length above the bytes sent would leave the server waiting: end the stream, as a client that gave up.
  else if (c.transport.declared !== undefined) request.cut = { at: bytes.length, end: 'fin', pauseMs: 0 };
  return request;
}

function buildMalformed(c: MalformedCase, env: BuildEnv): WireRequest {
  const host = `Host: 127.0.0.1:${env.port}`;
  const cookie = c.auth ? `Cookie: ${env.session.cookie}\r\n` : '';
  const tail = `${cookie}Connection: close\r\n\r\n`;
  const heads: Record<string, string> = {
    'http-1.0': `GET ${c.path} HTTP/1.0\r\n${host}\r\n${tail}`,
    'http-2-line': `GET ${c.path} HTTP/2.0\r\n${host}\r\n${tail}`,
    'double-space': `GET  ${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
    'lower-method': `get ${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
    'header-no-colon': `GET ${c.path} HTTP/1.1\r\n${host}\r\nNoColonHere\r\n${tail}`,
    'space-before-colon': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Thing : 1\r\n${tail}`,
    'obs-fold': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Folded: a\r\n b\r\n${tail}`,
    'lf-only': `GET ${c.path} HTTP/1.1\n${host}\n${tail.replace(/\r\n/g, '\n')}`,
    'nul-in-header': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Nul: a\u0000b\r\n${tail}`,
    'huge-header': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Huge: ${'a'.repeat(20_000)}\r\n${tail}`,
    'many-headers': `GET ${c.path} HTTP/1.1\r\n${host}\r\n${Array.from({ length: 2100 }, (_, i) => `X-H${i}: 1\r\n`).join('')}${tail}`,
    'absolute-form': `GET http://127.0.0.1:${env.port}${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
    'absolute-form-evil': `POST http://evil.example${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${tail}{}`,
    asterisk: `OPTIONS * HTTP/1.1\r\n${host}\r\n${tail}`,
    connect: `CONNECT 127.0.0.1:${env.port} HTTP/1.1\r\n${host}\r\n${tail}`,
    'cl-and-te': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n${tail}2\r\n{}\r\n0\r\n\r\n`,
    'bad-chunk': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${tail}zz\r\n{}\r\n0\r\n\r\n`,
    'no-host': `GET ${c.path} HTTP/1.1\r\n${tail}`,
    'two-hosts': `GET ${c.path} HTTP/1.1\r\n${host}\r\nHost: evil.example\r\n${tail}`,
    'raw-space-in-target': `GET ${c.path}/a b HTTP/1.1\r\n${host}\r\n${tail}`,
    'raw-utf8-target': `GET ${c.path}?q=é😀 HTTP/1.1\r\n${host}\r\n${tail}`,
    'two-content-lengths': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n${tail}{}`,
    'te-identity': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: identity\r\nContent-Length: 2\r\n${tail}{}`,
    'unknown-method': `FROB ${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
  };
  const head = heads[c.malformed] ?? heads['http-1.0']!;
  return { method: 'GET', target: c.path, headers: [], body: Buffer.alloc(0), framing: { kind: 'none' }, rawHead: head };
}

// ---------------------------------------------------------------------------------------------------------
// Describing a case for a report

function showBody(c: FuzzCase, apiModels: Map<string, RouteModel>): string {
  const body = c.body;
  switch (body.kind) {
    case 'none':
      return '';
    case 'edited': {
      const model = modelOf(c, apiModels).body;
      return showJson({ o: applyEdits(model.kind === 'object' ? model.valid : [], body.edits) });
    }
    case 'json':
      return showJson(body.value);
    case 'text':
    case 'form':
      return JSON.stringify(body.text);
    case 'bytes':
      return `bytes ${Buffer.from(body.latin1, 'latin1').toString('hex')}`;
    case 'multipart':
      return showMultipart(body.body);
  }
}

/** A curl-like description: what was sent, with long values left symbolic. */
export function describeCase(c: AnyCase, apiModels: Map<string, RouteModel>): string {
  if (isMalformed(c)) return `raw HTTP (${c.malformed}) for ${c.route}${c.auth ? ' with the session cookie' : ''}`;
  const pattern = c.route.slice(c.route.indexOf(' ') + 1);
  let path = pattern;
  for (const { name, piece } of c.params) path = path.replace(`:${name}`, showPiece(piece, ownerOfParam(pattern, name) ?? 'owner'));
  if (c.splat) path = path.replace('*', c.splat.map((piece) => showPiece(piece, '')).join('/'));
  const query = c.query.length ? `?${c.query.map(({ key, value }) => `${showPiece(key, 'event')}=${showPiece(value, 'event')}`).join('&')}` : '';
  const lines = [`curl -X ${c.method} 'http://127.0.0.1:PORT${path}${query}'${c.pathVariant === 'as-is' ? '' : `  (path spelled: ${c.pathVariant})`}`];
  const h = c.headers;
  lines.push(`  auth: ${h.auth}; origin: ${h.origin}; host: ${h.host}${h.tz !== undefined ? `; tz cookie: ${JSON.stringify(h.tz)}` : ''}  (bent: ${c.perturbed.join(', ') || 'only the body'})`);
  if (!('auto' in h.contentType)) lines.push(`  -H 'Content-Type: ${'value' in h.contentType ? h.contentType.value : '(none)'}'`);
  if (h.encoding) lines.push(`  -H 'Content-Encoding: ${h.encoding.name}' (${h.encoding.compress ? 'compressed' : 'not actually compressed'})`);
  for (const [name, value] of h.extra) lines.push(`  -H '${name}: ${value.length > 60 ? `${value.slice(0, 60)}…(${value.length})` : value}'`);
  const body = showBody(c, apiModels);
  if (body) lines.push(`  --data-binary ${body.length > 1500 ? `${body.slice(0, 1500)}…` : body}`);
  const t = c.transport;
  const notes = [
    t.framing !== 'length' ? `framing: ${t.framing}` : '',
    t.declared !== undefined ? `Content-Length: ${JSON.stringify(t.declared)}` : '',
    t.cut ? `body cut after ${t.cut.perMille / 10}% then ${t.cut.end}${t.cut.pauseMs ? ` (after ${t.cut.pauseMs} ms)` : ''}` : '',
    t.connection !== 'close' ? `Connection: ${t.connection}` : '',
  ].filter(Boolean);
  if (notes.length) lines.push(`  [${notes.join('; ')}]`);
  return lines.join('\n');
}

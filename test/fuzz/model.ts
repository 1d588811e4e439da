/*
 * What the fuzzer knows about the app's routes, and the shape of a generated case: generators.ts draws cases,
 * render.ts turns them into bytes and into the curl-like text of a report.
 */
import type { z } from 'zod';
import { AddMemberSchema } from '@services/integrations/service.js';
import { AddUserSchema, SetPasswordSchema } from '@services/users/links.js';
import { UserUpdateSchema } from '@services/users/service.js';
import {
  DisableTwoFactorSchema,
  LoginSchema,
  NameSchema,
  PasskeyNameSchema,
  PasskeyRegistrationSchema,
  PasskeySignInSchema,
  PasswordChangeSchema,
  PasswordResetRequestSchema,
  SecondFactorCodeSchema,
  SetupSchema,
} from '@shared/schemas/auth.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import { PaymentInputSchema } from '@shared/schemas/payments.js';
import { RECORD_TYPES, recordApiPath, type RecordType } from '@shared/record-types.js';
import { RecordInputSchemas } from '@shared/schemas/records.js';
import type { MultipartBody } from './multipart.js';
import type { DeclaredRoute } from './routes.js';
import type { IdOwner, Json } from './values.js';
import { BulkDeleteSchema, BulkMailchimpSchema, BulkTagsSchema, UndoDeleteSchema } from '@shared/schemas/bulk.js';
import { PreferenceBodySchema } from '@shared/schemas/preferences.js';
import { ApiTokenInputSchema } from '@shared/schemas/api-tokens.js';
import { DismissSchema, MergeSchema } from '@shared/schemas/duplicates.js';
import { NoteInputSchema, NoteUpdateSchema } from '@shared/schemas/notes.js';
import { TaskInputSchema, TaskUpdateSchema } from '@shared/schemas/tasks.js';

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

const LIST_QUERY = ['q', 'sort', 'dir', 'limit', 'offset', 'after', 'before', 'filter', 'type'] as const;
const CONTACTS_QUERY = ['q', 'ownerType', 'tag', 'primary', 'sort', 'dir', 'limit', 'offset', 'after', 'before'] as const;

const PAGE_QUERY = ['q', 'page', 'after', 'before', 'filter', 'type', 'return'] as const;

const s = (value: string): Json => ({ s: value });

const owner = (): Json => ({ id: 'owner', pick: 0 });

const none = (query: readonly string[] = []): RouteModel => ({ body: { kind: 'none' }, query });

const object = (schema: z.ZodType, valid: Array<[string, Json]>): RouteModel => ({ body: { kind: 'object', schema, valid }, query: [] });

/** The smallest body each record type accepts: the name fields. */
const VALID_RECORD: Record<RecordType, Array<[string, Json]>> = {
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

const VALID_CONTACT: Array<[string, Json]> = [
  ['firstName', s('Fuzz')],
  ['lastName', s('Contact')],
  ['entityType', s('event')],
  ['entityId', owner()],
];

const VALID_PAYMENT: Array<[string, Json]> = [
  ['entityType', s('event')],
  ['entityId', owner()],
  ['description', s('Fuzz payment')],
  ['amount', s('10.00')],
];

/** A passkey assertion and registration of the right shape (base64url of `{}` and of a few bytes). */
const FAKE_ASSERTION: Json = {
  o: [
    ['id', s('AAAAAAAAAAAAAAAAAAAAAA')],
    ['rawId', s('AAAAAAAAAAAAAAAAAAAAAA')],
    ['type', s('public-key')],
    [
      'response',
      {
        o: [
          ['clientDataJSON', s('e30')],
          ['authenticatorData', s('AAAA')],
          ['signature', s('AAAA')],
        ],
      },
    ],
    ['clientExtensionResults', { o: [] }],
  ],
};
const FAKE_REGISTRATION: Json = {
  o: [
    ['id', s('AAAAAAAAAAAAAAAAAAAAAA')],
    ['rawId', s('AAAAAAAAAAAAAAAAAAAAAA')],
    ['type', s('public-key')],
    [
      'response',
      {
        o: [
          ['clientDataJSON', s('e30')],
          ['attestationObject', s('oA')],
        ],
      },
    ],
    ['clientExtensionResults', { o: [] }],
  ],
};

export function apiRouteModels(): Map<string, RouteModel> {
  const models = new Map<string, RouteModel>([
    [
      'POST /api/login',
      object(LoginSchema, [
        ['email', s('someone@example.org')],
        ['password', s('not the password')],
      ]),
    ],
    ['POST /api/logout', none()],
    ['GET /api/me', none()],
    ['GET /api/session', none()],
    [
      'POST /api/setup',
      object(SetupSchema, [
        ['email', s('second@example.org')],
        ['password', s('long enough password')],
        ['firstName', s('Second')],
        ['lastName', s('Admin')],
      ]),
    ],
    ['GET /api/stats', none()],
    ['GET /api/dashboard', none()],
    ['GET /api/calendar/events', none(['month'])],
    ['GET /api/sessions', none()],
    ['GET /api/deleted', none()],
    ['POST /api/deleted/:id/restore', none()],
    [
      'POST /api/deleted/undo',
      object(UndoDeleteSchema, [
        ['type', s('event')],
        ['ids', { a: [{ id: 'event', pick: 0 }] }],
      ]),
    ],
    ['GET /api/contacts/:id/history', none(['page'])],
    ['GET /api/payments/:id/history', none(['page'])],
    ['GET /api/files/:id/history', none(['page'])],
    // Activity (docs/decisions/0106).
    ['GET /api/contacts/:id/activity', none(['kind', 'after'])],
    ['GET /api/activity', none(['user', 'kind', 'type', 'from', 'to', 'after'])],
    ['GET /api/activity.csv', none(['user', 'kind', 'type', 'from', 'to'])],
    ['GET /api/users', none()],
    [
      'POST /api/users',
      object(AddUserSchema, [
        ['email', s('fuzz.user@example.org')],
        ['firstName', s('Fuzz')],
        ['lastName', s('User')],
        ['role', s('viewer')],
      ]),
    ],
    ['PUT /api/users/:id', object(UserUpdateSchema, [['firstName', s('Fuzz')]])],
    ['POST /api/users/:id/reset-link', none()],
    ['GET /api/set-password/:token', none()],
    ['POST /api/set-password/:token', object(SetPasswordSchema, [['password', s('a long enough password')]])],
    ['DELETE /api/sessions/:id', none()],
    // Two-factor sign-in, sign-in history and the security settings (ADRs 0102, 0103).
    ['POST /api/password-reset', object(PasswordResetRequestSchema, [['email', s('someone@example.org')]])],
    ['GET /api/me/sign-ins', none()],
    ['GET /api/me/two-factor', none()],
    ['GET /api/users/:id/sign-ins', none()],
    ['GET /api/security', none()],
    ['PUT /api/security', none()],
    ['POST /api/me/totp', none()],
    ['POST /api/me/totp/confirm', object(SecondFactorCodeSchema, [['code', s('123456')]])],
    [
      'DELETE /api/me/totp',
      object(DisableTwoFactorSchema, [
        ['password', s('not the password')],
        ['code', s('123456')],
      ]),
    ],
    ['POST /api/users/:id/reset-2fa', none()],
    // Passkeys (ADR 0104): WebAuthn JSON whose challenge is never ours, so the checks past the shape run.
    ['POST /api/login/passkey/options', none()],
    ['POST /api/login/passkey', object(PasskeySignInSchema, [['response', FAKE_ASSERTION]])],
    ['GET /api/me/passkeys', none()],
    ['POST /api/me/passkeys/options', none()],
    [
      'POST /api/me/passkeys',
      object(PasskeyRegistrationSchema, [
        ['name', s('Fuzz key')],
        ['response', FAKE_REGISTRATION],
      ]),
    ],
    ['PATCH /api/me/passkeys/:id', object(PasskeyNameSchema, [['name', s('Fuzz key')]])],
    ['DELETE /api/me/passkeys/:id', none()],
    ['POST /api/sessions/sign-out-others', none()],
    [
      'PUT /api/account',
      object(NameSchema, [
        ['firstName', s('Fuzz')],
        ['lastName', s('Person')],
      ]),
    ],
    [
      'POST /api/account/password',
      object(PasswordChangeSchema, [
        ['currentPassword', s('not the password')],
        ['newPassword', s('another long password')],
      ]),
    ],
    ['GET /api/events/:id/wordpress-url', none()],
    ['GET /api/contacts/:id', none(['include'])],
    ['GET /api/contacts/:entityType/:entityId', none()],
    ['GET /api/contacts/:entityType/:entityId/owner', none()],
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
    ['GET /api/preferences', none()],
    ['PUT /api/preferences/:name', object(PreferenceBodySchema, [['value', s('table')]])],
    ['GET /api/contacts', none(CONTACTS_QUERY)],
    ['GET /api/search', none(['q', 'limit'])],
    ['GET /api/export/contacts', none([...CONTACTS_QUERY, 'ids'])],
    ['GET /api/export/:segment', none([...LIST_QUERY, 'ids'])],
    [
      'POST /api/contacts/bulk-tags',
      object(BulkTagsSchema, [
        ['ids', { a: [{ id: 'contact', pick: 0 }] }],
        ['add', s('fuzz')],
      ]),
    ],
    ['POST /api/contacts/bulk-delete', object(BulkDeleteSchema, [['ids', { a: [{ id: 'contact', pick: 0 }] }]])],
    [
      'POST /api/contacts/bulk-mailchimp',
      object(BulkMailchimpSchema, [
        ['ids', { a: [{ id: 'contact', pick: 0 }] }],
        ['audienceId', s('abc123')],
      ]),
    ],
    ['GET /api/jobs', none(['type', 'state', 'limit'])],
    ['GET /api/jobs/:id', none()],
    // No body: the fuzz checks the answers to bad job requests without starting imports or syncs of its own.
    ['POST /api/jobs', none(['type', 'kind'])],
    ['POST /api/jobs/:id/cancel', none()],
    // The general import (ADR 0107): no file, so the fuzz checks its refusals without starting imports of its own.
    ['POST /api/imports', none()],
    ['POST /api/imports/preview', none()],
    ['GET /api/imports/:id/report.csv', none()],
    ['GET /api/notes/mentionable', none()],
    ['GET /api/notes', none(['entityType', 'entityId'])],
    [
      'POST /api/notes',
      object(NoteInputSchema, [
        ['entityType', s('event')],
        ['entityId', owner()],
        ['body', s('Fuzz **note**')],
      ]),
    ],
    ['PUT /api/notes/:id', object(NoteUpdateSchema, [['body', s('Fuzz note')]])],
    ['DELETE /api/notes/:id', none()],
    ['GET /api/tasks', none(['assignee', 'status', 'due', 'entityType', 'entityId', 'after', 'limit'])],
    ['GET /api/tasks/:id', none()],
    [
      'POST /api/tasks',
      object(TaskInputSchema, [
        ['title', s('Fuzz task')],
        ['dueDate', s('2026-12-01')],
        ['assigneeId', s('1')],
      ]),
    ],
    ['PUT /api/tasks/:id', object(TaskUpdateSchema, [['title', s('Fuzz task')]])],
    ['DELETE /api/tasks/:id', none()],
    ['GET /api/notifications', none()],
    ['POST /api/notifications/read', none()],
    ['GET /api/openapi.json', none()],
    ['GET /api/backups', none()],
    // No body: the fuzz does not start backups of its own (each copies the whole database).
    ['POST /api/backups', none()],
    ['GET /api/backups/:name/download', none()],
    ['GET /api/api-tokens', none()],
    [
      'POST /api/api-tokens',
      object(ApiTokenInputSchema, [
        ['name', s('Fuzz token')],
        ['role', s('viewer')],
      ]),
    ],
    ['DELETE /api/api-tokens/:id', none()],
    ['GET /api/webhooks', none()],
    ['GET /api/webhooks/:id', none(['limit'])],
    // No body: a created endpoint would send the fuzz's own writes somewhere.
    ['POST /api/webhooks', none()],
    ['DELETE /api/webhooks/:id', none()],
    ['POST /api/webhooks/:id/enable', none()],
    ['POST /api/webhooks/:id/test', none()],
    ['POST /api/webhooks/:id/deliveries/:deliveryId/replay', none()],
    ['GET /api/duplicates', none(['type', 'cursor', 'limit'])],
    ['GET /api/duplicates/check', none(['type', 'name', 'email', 'phone'])],
    [
      'POST /api/duplicates/dismiss',
      object(DismissSchema, [
        ['type', s('events')],
        ['a', owner()],
        ['b', owner()],
      ]),
    ],
    ['GET /api/merge', none(['type', 'a', 'b'])],
    [
      'POST /api/merge',
      object(MergeSchema, [
        ['type', s('events')],
        ['keepId', owner()],
        ['mergeId', owner()],
      ]),
    ],
  ]);
  for (const kind of RECORD_TYPES) {
    const path = recordApiPath(kind);
    models.set(`GET ${path}`, none(LIST_QUERY));
    models.set(`GET ${path}/:id`, none());
    models.set(`GET ${path}/:id/history`, none(['page']));
    models.set(`GET ${path}/:id/activity`, none(['kind', 'after']));
    models.set(`POST ${path}`, object(RecordInputSchemas[kind], VALID_RECORD[kind]));
    models.set(`PUT ${path}/:id`, object(RecordInputSchemas[kind], VALID_RECORD[kind]));
    models.set(`DELETE ${path}/:id`, none());
    models.set(`POST ${path}/bulk-delete`, object(BulkDeleteSchema, [['ids', { a: [{ id: kind, pick: 0 }] }]]));
  }
  return models;
}

/** Pages all take the same thing (a GET with list parameters); only their path parameters differ. */
export const pageModel = (): RouteModel => none(PAGE_QUERY);

export function modelOf(c: FuzzCase, apiModels: Map<string, RouteModel>): RouteModel {
  return c.surface === 'page' ? pageModel() : (apiModels.get(c.route) ?? none());
}

// ---------------------------------------------------------------------------------------------------------
// Path parameters

/** Which seeded rows an id parameter refers to: from its name, else from the path segment before it. */
const OWNER_BY_PARAM: Record<string, IdOwner> = {
  eventId: 'event',
  professionalId: 'professional',
  runClubId: 'runclub',
  brandId: 'brand',
  mediaId: 'media',
  contactId: 'contact',
};

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

export type ParamKind = 'id' | 'entityId' | 'entityType' | 'syncKind' | 'audienceId' | 'listSegment' | 'preferenceName';

const PARAM_KINDS: Record<string, ParamKind> = {
  id: 'id',
  eventId: 'id',
  professionalId: 'id',
  runClubId: 'id',
  brandId: 'id',
  mediaId: 'id',
  contactId: 'id',
  deliveryId: 'id',
  entityId: 'entityId',
  entityType: 'entityType',
  kind: 'syncKind',
  audienceId: 'audienceId',
  segment: 'listSegment',
  name: 'preferenceName',
  // A set-password token is an opaque string in the path, as an audience id is.
  token: 'audienceId',
};

export const paramKindOf = (name: string): ParamKind | undefined => PARAM_KINDS[name];

export function ownerOfParam(pattern: string, name: string): IdOwner | undefined {
  if (OWNER_BY_PARAM[name]) return OWNER_BY_PARAM[name];
  const segments = pattern.split('/');
  const at = segments.indexOf(`:${name}`);
  return at > 0 ? OWNER_BY_SEGMENT[segments[at - 1]!] : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Cases

/** A path or query value: an existing row's id, text sent verbatim (may be broken %-encoding), or text to encode. */
export type Piece = { existing: number } | { raw: string } | { text: string } | { repeat: string; times: number };

export interface QueryPair {
  key: Piece;
  value: Piece;
}

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

export interface TransportSpec {
  framing: 'length' | 'chunked' | 'none';
  /** A wrong Content-Length (sent instead of the real one). */
  declared?: string;
  /** Send only this share (per mille) of the body, then end or reset the connection. */
  cut?: { perMille: number; end: 'fin' | 'reset'; pauseMs: number };
  connection: 'close' | 'keep-alive';
}

/** Path spellings Express may route differently from the canonical one. */
export type PathVariant =
  'as-is' | 'trailing-slash' | 'double-slash' | 'upper-case' | 'dot-segment' | 'encoded-slash' | 'matrix' | 'extra-segment' | 'fragment';

/**
 * The ways a request can be bent. Each case bends only a few of them and keeps the rest well-formed, so most cases
 * get past the session, origin and content-type checks to the handler, and a shrunk counterexample names only the
 * dimensions that matter. (The body is always generated: it is what most handlers are about.)
 */
export const DIMENSIONS = [
  'method',
  'path',
  'params',
  'query',
  'auth',
  'origin',
  'contentType',
  'encoding',
  'host',
  'headers',
  'transport',
] as const;

export type Dimension = (typeof DIMENSIONS)[number];

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

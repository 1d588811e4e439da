import type { Router } from 'express';
import * as z from 'zod';
import { RECORD_TYPES } from '@shared/record-types.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import { PaymentInputSchema } from '@shared/schemas/payments.js';
import { ApiErrorSchema, ContactOwnerSchema, listPageOf } from '@shared/schemas/wire.js';
import { jsonOf, recordAnswerOf, storedAnswerOf, type JsonSchema } from './json-schema.js';
import { describeOperations, recordComponent, recordListComponent, type OperationDoc, type Shape } from './operations.js';

/** A route as the router declares it: the method and the Express path below /api. */
export interface DeclaredRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/**
 * Every route of the API router, read from the router itself (its stack, and the stacks of the routers mounted in
 * it), so the description cannot leave one out unnoticed (test/api/openapi.test.ts).
 */
export function declaredRoutes(router: Router): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route && typeof layer.route.path === 'string') {
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: layer.route.path });
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((router as unknown as { stack: Layer[] }).stack);
  return routes;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function schemaOf(shape: Shape, io: 'input' | 'output'): JsonSchema {
  if ('component' in shape) return ref(shape.component);
  if ('json' in shape) return shape.json;
  return jsonOf(shape, io);
}

/** The answers every description shares: records, contacts and payments from their input schemas, the error shape. */
function components(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { Error: jsonOf(ApiErrorSchema, 'output') };
  for (const type of RECORD_TYPES) {
    schemas[recordComponent(type, 'item')] = recordAnswerOf(type, 'item');
    schemas[recordComponent(type, 'detail')] = recordAnswerOf(type, 'detail');
    schemas[recordListComponent(type)] = jsonOf(listPageOf(z.unknown()), 'output');
    (schemas[recordListComponent(type)]!.properties as Record<string, unknown>).items = {
      type: 'array',
      items: ref(recordComponent(type, 'item')),
    };
  }
  schemas.Contact = storedAnswerOf(ContactInputSchema);
  schemas.DirectoryContact = storedAnswerOf(ContactInputSchema, z.object({ owner: ContactOwnerSchema }));
  schemas.DirectoryContactPage = jsonOf(listPageOf(z.unknown()), 'output');
  (schemas.DirectoryContactPage.properties as Record<string, unknown>).items = { type: 'array', items: ref('DirectoryContact') };
  schemas.Payment = storedAnswerOf(PaymentInputSchema);
  schemas.PaymentList = {
    type: 'object',
    properties: { items: { type: 'array', items: ref('Payment') }, total: { type: 'integer' }, totalAmount: { type: 'string' } },
    required: ['items', 'total', 'totalAmount'],
  };
  return schemas;
}

const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });

function parametersOf(path: string, doc: OperationDoc): JsonSchema[] {
  const parameters: JsonSchema[] = [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: /^(id|entityId)$/.test(name!) ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
  if (doc.query && doc.query instanceof z.ZodType) {
    const query = jsonOf(doc.query, 'input');
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties as Record<string, JsonSchema> | undefined) ?? {}))
      parameters.push({ name, in: 'query', required: required.has(name), schema });
  } else if (doc.query) {
    for (const [name, description] of Object.entries(doc.query))
      parameters.push({ name, in: 'query', required: false, description, schema: { type: 'string' } });
  }
  return parameters;
}

function operationOf(method: string, path: string, doc: OperationDoc): JsonSchema {
  const answers: Record<string, unknown> = {};
  const { answer } = doc;
  answers[String(answer.status)] = answer.schema
    ? { description: answer.description, content: { [answer.media ?? 'application/json']: { schema: schemaOf(answer.schema, 'output') } } }
    : answer.media
      ? { description: answer.description, content: { [answer.media]: { schema: { type: 'string' } } } }
      : { description: answer.description };
  if (doc.body || doc.query || path.includes(':')) answers['400'] = errorAnswer('Bad input: `issues` names each field’s problem');
  if (doc.access !== 'public') {
    answers['401'] = errorAnswer('Not signed in, or the API token is unknown, revoked or expired');
    answers['403'] = errorAnswer(
      doc.personOnly ? 'An API token cannot use this route, or the role does not allow it' : 'The role does not allow it',
    );
    answers['429'] = errorAnswer('Too many requests with this API token (see Retry-After)');
  }
  if (path.includes(':')) answers['404'] = errorAnswer('Not found');
  if (method !== 'GET' && doc.access !== 'public') answers['409'] = errorAnswer('Conflict (e.g. changed by someone else)');
  answers.default = errorAnswer('Any other error');
  const operation: JsonSchema = {
    // Letters and digits only: Swagger UI makes element ids of it (a '/' in one stopped the page's rendering there).
    operationId: `${method.toLowerCase()}${path
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('')}`,
    summary: doc.summary,
    tags: [doc.tag],
    description:
      doc.access === 'public'
        ? 'Open without signing in.'
        : `Needs the ${doc.access} role${doc.personOnly ? ', signed in as a person (not an API token)' : ''}.`,
    parameters: parametersOf(path, doc),
    responses: answers,
  };
  if (doc.access === 'public') operation.security = [];
  if (doc.body)
    operation.requestBody = {
      required: true,
      content: { [doc.multipart ? 'multipart/form-data' : 'application/json']: { schema: schemaOf(doc.body, 'input') } },
    };
  return operation;
}

/** `/events/:id` as OpenAPI writes it: `/api/events/{id}`. */
export const openApiPath = (path: string) => `/api${path.replace(/:(\w+)/g, '{$1}')}`;

/**
 * The OpenAPI 3.1 description of every route the router declares, from the descriptions in operations.ts and the
 * zod schemas the routes parse with. A route without a description is described as such (and fails the test).
 */
export function buildOpenApiDocument(router: Router, version: string): JsonSchema {
  const docs = describeOperations();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, path } of declaredRoutes(router)) {
    const doc = docs.get(`${method} ${path}`) ?? {
      tag: 'Undescribed',
      access: 'viewer',
      summary: 'Not described yet',
      answer: { status: 200, description: 'Not described yet' },
    };
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = operationOf(method, path, doc);
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Pacer CRM API',
      version,
      description:
        'Every /api route. Send `Authorization: Bearer pcr_…` (an API token an admin made in Settings → API tokens or with ' +
        '`pacer tokens create`); a token acts with its role, needs no cookie and no Origin, and is limited per second. ' +
        'Errors answer `{ message, code, issues? }`. Lists page with cursors: follow `next` as `?after=`, `prev` as `?before=`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerToken: [] }, { sessionCookie: [] }],
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'pcr_ + 43 base64url characters', description: 'An API token' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'pacer', description: 'The browser’s session (writes also need our Origin)' },
      },
    },
  };
}

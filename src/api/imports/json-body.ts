import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Request } from 'express';
import { AppError, badRequest } from '@services/errors.js';
import { whenClientLeaves } from '@services/files/multipart.js';
import { JsonRowsReader, type RowsContainer } from '@services/imports/json-rows.js';
import { startImportJob } from '@services/jobs/service.js';
import { actorOf } from '../actor.js';

/** A JSON job body may have up to 50 MB (a few hundred thousand rows), counted after any Content-Encoding. */
const JSON_JOB_BODY_BYTES = 50 * 1024 * 1024;
/** Read before the rows begin, or of a body without rows: the general JSON limit. */
const PREFIX_BYTES = 1024 * 1024;

const tooLarge = () => new AppError(413, 'payload_too_large', 'The request body is too large');
const clientLeft = () => badRequest('The client went away');

const INFLATERS: Record<string, () => zlib.Inflate | zlib.Gunzip | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** What an import started from a JSON body is asked to do. */
interface JsonImportParams {
  kind: 'events' | 'brands';
  dryRun?: boolean;
}

export interface JsonBodyRules {
  /** The import's parameters as far as they are known when its rows begin (the job is recorded with them). */
  early(reader: JsonRowsReader): JsonImportParams | Record<string, never>;
  /**
   * Once the whole body is read: throws the 4xx it deserves, else answers the import to start (null: the body is
   * no import, and nothing is stored).
   */
  complete(reader: JsonRowsReader): JsonImportParams | null;
}

/**
 * The body's bytes as they arrive (inflated when compressed), counted: over the limit fails with 413, a client
 * that goes away fails it too. Never destroys the request, so an answer can still be sent.
 */
async function* bodyBytes(req: Request): AsyncGenerator<Buffer> {
  const encoding = (req.get('content-encoding') ?? 'identity').toLowerCase();
  let source: Readable = req;
  let inflater: zlib.Inflate | zlib.Gunzip | zlib.BrotliDecompress | null = null;
  if (encoding === 'identity') {
    if (Number(req.get('content-length') ?? 0) > JSON_JOB_BODY_BYTES) throw tooLarge();
  } else {
    const inflate = INFLATERS[encoding];
    if (!inflate) throw new AppError(415, 'unsupported_media_type', `Unsupported content encoding "${encoding}"`);
    const stream = inflate();
    req.on('error', (error) => stream.destroy(error));
    req.pipe(stream);
    source = inflater = stream;
  }
  let left = false;
  whenClientLeaves(req, () => {
    left = true;
    source.destroy(clientLeft());
  });
  let total = 0;
  try {
    for await (const chunk of source.iterator({ destroyOnReturn: false })) {
      total += (chunk as Buffer).length;
      if (total > JSON_JOB_BODY_BYTES) throw tooLarge();
      yield chunk as Buffer;
    }
  } catch (error) {
    throw left ? clientLeft() : error instanceof AppError ? error : badRequest('The request could not be read');
  } finally {
    if (inflater) req.unpipe(inflater);
  }
  if (left) throw clientLeft();
}

/** Reads what is left of a body answered early, unparsed, so the client hears the answer and the connection stays usable. */
async function drain(req: Request): Promise<void> {
  if (req.readableEnded || req.destroyed) return;
  await new Promise<void>((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.resume();
  });
}

/**
 * Starts an import from a JSON body without holding it: the bytes go to the job's stored input as they arrive,
 * while JsonRowsReader checks them row by row. Until the rows begin (at most 1 MB) the bytes are kept, so a body
 * that is no import (another job type) stores nothing. When the body ends, `rules.complete` judges it: a refusal
 * rolls the stored input back and removes the job, as does a body over the limit or a client that goes away.
 */
export async function receiveJsonBody(
  req: Request,
  container: RowsContainer,
  rules: JsonBodyRules,
): Promise<{ reader: JsonRowsReader; jobId: number | null }> {
  const reader = new JsonRowsReader(container);
  // As the JSON parser did: a body of another type is not read (and an import then has no rows).
  const chunks = req.is('application/json') ? bodyBytes(req) : (async function* () {})();
  const prefix: Buffer[] = [];
  let prefixBytes = 0;
  let ended = false;
  try {
    while (!reader.largeStarted && prefixBytes <= PREFIX_BYTES) {
      const next = await chunks.next();
      if (next.done) {
        ended = true;
        break;
      }
      reader.write(next.value);
      prefix.push(next.value);
      prefixBytes += next.value.length;
    }
    if (ended) {
      // An empty body reads as {}, as it did with the JSON parser.
      if (prefixBytes > 0) reader.end();
      const params = rules.complete(reader);
      if (!params) return { reader, jobId: null };
      const bytes = Buffer.concat(prefix);
      return {
        reader,
        jobId: await startImportJob(req.ctx, actorOf(req), params, { format: 'json', container, bytes, rows: reader.rows }),
      };
    }
    let settled: JsonImportParams | null = null;
    async function* stored(): AsyncGenerator<Buffer> {
      while (prefix.length) yield prefix.shift()!;
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        reader.write(next.value);
        yield next.value;
      }
      reader.end();
      // A large body that is no import (a job of another type padded past 1 MB) is refused like any other.
      settled = rules.complete(reader);
      if (!settled) throw tooLarge();
    }
    const jobId = await startImportJob(req.ctx, actorOf(req), rules.early(reader), {
      format: 'json',
      container,
      bytes: stored(),
      settle: () => ({ params: settled!, rows: reader.rows }),
    });
    return { reader, jobId };
  } finally {
    await chunks.return(undefined);
    await drain(req);
  }
}

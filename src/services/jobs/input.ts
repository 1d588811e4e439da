import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { INPUT_CHUNK_BYTES, insertInputChunks, readInputChunks } from './queries.js';

/** Chunks read per query: about 2 MB. */
const CHUNKS_PER_QUERY = 32;
/**
 * Chunks written per insert: about 0.5 MB, so the statement a driver builds from them (MySQL's as escaped text,
 * several times the bytes) stays small for each of the bodies arriving at once.
 */
const CHUNKS_PER_INSERT = 8;

/**
 * Stores a job's input (an uploaded CSV, or the JSON body a screen sent) in job_inputs as it arrives, so whichever
 * process runs the job can read it, on this machine or another. A few chunks are written per statement, each on
 * its own: no transaction (nor pool connection) is held while the client sends the rest, however slowly. A job
 * never sees half its input all the same: its job is held back, and only released (with `params.input`, which the
 * job needs to read any) once this has returned; input that fails part way is removed with its job by the caller.
 */
export async function storeInput(db: Knex, jobId: number, source: AsyncIterable<Buffer> | Buffer): Promise<number> {
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let carry: Buffer = Buffer.alloc(0);
  const flush = async () => {
    await insertInputChunks(db, jobId, seq, pending);
    seq += pending.length;
    pending = [];
  };
  const chunks = Buffer.isBuffer(source) ? [source] : source;
  for await (const chunk of chunks) {
    size += chunk.length;
    carry = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    while (carry.length >= INPUT_CHUNK_BYTES) {
      pending.push(carry.subarray(0, INPUT_CHUNK_BYTES));
      carry = carry.subarray(INPUT_CHUNK_BYTES);
      if (pending.length >= CHUNKS_PER_INSERT) await flush();
    }
  }
  if (carry.length) pending.push(carry);
  if (pending.length) await flush();
  return size;
}

/** A job's stored input as a stream, read a few chunks at a time. */
export function readInput(db: Knex, jobId: number): Readable {
  async function* chunks() {
    let next = 0;
    for (;;) {
      const rows = await readInputChunks(db, jobId, next, CHUNKS_PER_QUERY);
      for (const row of rows) yield row.bytes;
      if (rows.length < CHUNKS_PER_QUERY) return;
      next = rows[rows.length - 1]!.seq + 1;
    }
  }
  return Readable.from(chunks());
}

export async function readInputText(db: Knex, jobId: number): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of readInput(db, jobId)) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

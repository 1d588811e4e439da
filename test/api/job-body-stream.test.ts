import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { listen, post, rowsBody, type LiveApp } from '../helpers/job-bodies.js';
import { waitUntil } from '../helpers/wait.js';

const MB = 1024 * 1024;

/** One brand row of about 130 bytes, numbered. */
const brandRow = (i: number) =>
  JSON.stringify({ Brand: `Stream ${i % 40}`, 'First Name': 'Pat', 'Last Name': `Row${i}`, Email: `pat${i}@stream${i % 40}.example.org` });

/** A POST /api/jobs import body of `count` brand rows. */
const jobBody = (count: number, tail = ']}}') => rowsBody('{"type":"import","params":{"kind":"brands","data":[', count, brandRow, tail);

/**
 * JSON job bodies go straight from the request into the job's stored input (job_inputs), checked as they stream:
 * a body refused part way (too large, broken, a client gone) leaves no job and no stored chunk behind.
 */
describe('JSON job bodies streamed into storage', () => {
  let t: TestApp;
  let live: LiveApp;
  const count = async (table: string) => Number(((await t.ctx.db(table).count({ n: '*' }).first()) as { n: number | string }).n);
  const finished = async (id: number) => {
    const job = async () => (await t.ctx.db('jobs').where({ id }).first()) as { state: string; params: string | Record<string, unknown> };
    await waitUntil(async () => ['succeeded', 'failed'].includes((await job()).state), `job ${id} to finish`, 120_000);
    return job();
  };

  beforeAll(async () => {
    t = await createTestApp();
    live = await listen(t, ['sam']);
  });
  beforeEach(async () => {
    await t.ctx.db('job_inputs').delete();
    await t.ctx.db('jobs').delete();
  });
  afterAll(async () => {
    await live.close();
    await t.close();
  });

  it('refuses a body over 50 MB with 413, declared or sent chunked, and leaves no job or stored chunk', async () => {
    const huge = jobBody(520_000);
    expect(huge.length).toBeGreaterThan(50 * MB);
    const declared = await post(live, 'sam', '/api/jobs', huge.pieces(), { length: huge.length });
    expect(declared).toEqual({ status: 413, body: { message: 'The request body is too large', code: 'payload_too_large' } });

    // Chunked: the server only finds out after storing 50 MB of it.
    const chunked = await post(live, 'sam', '/api/jobs', huge.pieces());
    expect(chunked).toEqual({ status: 413, body: { message: 'The request body is too large', code: 'payload_too_large' } });
    expect(await count('jobs')).toBe(0);
    expect(await count('job_inputs')).toBe(0);
  }, 180_000);

  it('removes the job and its stored chunks when the client goes away mid-body', async () => {
    const body = jobBody(300_000);
    const socket = net.connect(live.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /api/jobs HTTP/1.1',
        `Host: 127.0.0.1:${live.port}`,
        `Origin: ${live.origin}`,
        `Cookie: ${live.cookies.get('sam')}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    let sent = 0;
    for (const piece of body.pieces()) {
      if (sent > 6 * MB) break;
      sent += piece.length;
      if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve));
    }
    // The server is storing it: a job held back, chunks written.
    await waitUntil(async () => (await count('job_inputs')) > 0, 'the first chunks to be stored', 30_000);
    expect(await count('jobs')).toBe(1);
    socket.destroy();
    await waitUntil(async () => (await count('jobs')) === 0 && (await count('job_inputs')) === 0, 'the job and its chunks to go', 30_000);
  }, 120_000);

  it('answers 400 to JSON that breaks after the rows began, and keeps nothing of it', async () => {
    const broken = jobBody(45_000, ',}');
    expect(broken.length).toBeGreaterThan(4 * MB);
    const res = await post(live, 'sam', '/api/jobs', broken.pieces(), { length: broken.length });
    expect(res).toEqual({ status: 400, body: { message: 'The request body is not valid JSON', code: 'bad_json' } });
    const badRow = rowsBody(
      '{"type":"import","params":{"kind":"brands","data":[',
      40_000,
      (i) => (i === 39_000 ? '[1]' : brandRow(i)),
      ']}}',
    );
    const refused = await post(live, 'sam', '/api/jobs', badRow.pieces(), { length: badRow.length });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Row 39001 is not an object keyed by the CSV header');
    expect(await count('jobs')).toBe(0);
    expect(await count('job_inputs')).toBe(0);
  }, 120_000);

  it('takes the fields in any order and a gzip body, and names a bad row by the lines sent before the rows', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => brandRow(i));
    const reordered = `{"params":{"data":[${rows.join(',')}],"kind":"brands"},"type":"import"}`;
    const first = await post(live, 'sam', '/api/jobs', [gzipSync(reordered)], { headers: { 'Content-Encoding': 'gzip' } });
    expect(first.status).toBe(202);
    const job = await finished(first.body.id!);
    expect(job.state).toBe('succeeded');
    expect(typeof job.params === 'string' ? JSON.parse(job.params) : job.params).toMatchObject({
      kind: 'brands',
      input: { format: 'json', rows: 3000 },
    });
    expect(await count('contacts')).toBe(3000);

    const linesFirst = `{"lines":[5,9],"data":[${brandRow(1)},{"Brand":"Bad \uFFFD"}]}`;
    const refused = await post(live, 'sam', '/api/brands/bulk-import', [linesFirst]);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'Line 9: contains \uFFFD, a character lost before the text reached the import; correct it and import again',
    );

    // An empty body is no rows, as it always was.
    expect((await post(live, 'sam', '/api/brands/bulk-import', [''], { length: 0 })).body.message).toBe('Please enter CSV data');

    // A job of another type is no import: a body past 1 MB (here padding) is refused, and nothing is stored for it.
    const padded = `{"type":"sync","params":{"kind":"events"}${' '.repeat(2 * MB)}}`;
    expect((await post(live, 'sam', '/api/jobs', [padded])).status).toBe(413);
    expect(await count('job_inputs')).toBe(0);
  }, 120_000);
});

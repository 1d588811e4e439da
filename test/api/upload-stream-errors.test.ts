import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';
import { insertOwner, samples } from './attachments-fixtures.js';

interface RawAnswer {
  /** Null when the server closed the socket without answering. */
  status: number | null;
  body: string;
}

const BOUNDARY = 'truncatedboundary';

/** One multipart part as it appears on the wire, without the CRLF that ends its content. */
function partHead(name: string, filename?: string): string {
  const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
  return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${filename === undefined ? '' : 'Content-Type: image/png\r\n'}\r\n`;
}

/**
 * The real app on a real port, driven by a raw socket so the body can be cut anywhere: a client library would
 * always finish the multipart body (or refuse to send a Content-Length that does not match).
 */
describe('uploads whose body breaks off', () => {
  let t: TestApp;
  let server: http.Server;
  let port: number;
  let cookie: string;
  let eventId: number;
  const uncaught: unknown[] = [];
  // Only a real crash reaches this (the test runner keeps the worker alive, so check it here).
  const recordUncaught = (error: unknown) => void uncaught.push(error);

  const origin = () => `http://127.0.0.1:${port}`;
  const incomingFiles = () => {
    const incoming = path.join(t.uploadDir, '.incoming');
    return existsSync(incoming) ? readdirSync(incoming) : [];
  };
  const fileRows = async () => Number((await t.database.db('files').count({ n: '*' }).first())?.n);

  function uploadHead(contentLength: number, target = '/api/upload'): string {
    return [
      `POST ${target} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Origin: ${origin()}`,
      `Cookie: ${cookie}`,
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
      `Content-Length: ${contentLength}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
  }

  /** The owner fields, then `tail`: whatever the test cuts the body off inside. */
  function truncatedBody(tail: Buffer): Buffer {
    return Buffer.concat([Buffer.from(`${partHead('entityType')}event\r\n${partHead('entityId')}${eventId}\r\n`), tail]);
  }

  /** Writes raw bytes to the server, then reads the answer until the server closes the connection. */
  function sendRaw(bytes: Buffer | string): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const text = Buffer.concat(received).toString('utf8');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
        resolve({ status: status ? Number(status[1]) : null, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
      });
      socket.setTimeout(10_000, () => {
        socket.destroy();
        reject(new Error('the server neither answered nor closed the connection'));
      });
      socket.write(bytes);
    });
  }

  /** Sends `body` with a Content-Length of exactly its size. */
  const sendWhole = (body: Buffer, target?: string) => sendRaw(Buffer.concat([Buffer.from(uploadHead(body.length, target)), body]));

  async function expectServerStillAnswers() {
    const res = await fetch(`${origin()}/api/me`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp();
    eventId = await insertOwner(t.database.db, 'event');
    const email = 'uploader@example.org';
    await createUser(t.ctx, { email, password: TEST_PASSWORD, firstName: 'Una', lastName: 'Loader' });
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const login = await fetch(`${origin()}/api/login`, {
      method: 'POST',
      headers: { Origin: origin(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    process.on('uncaughtExceptionMonitor', recordUncaught);
  });
  afterEach(() => {
    expect(uncaught.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', recordUncaught);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('answers 400 when the body ends inside a file being written, and keeps nothing', async () => {
    const answer = await sendWhole(truncatedBody(Buffer.concat([Buffer.from(partHead('files', 'finish.png')), samples.png])));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: 'The upload could not be read: Unexpected end of form', code: 'bad_request' });
    await expectServerStillAnswers();
    expect(incomingFiles()).toEqual([]);
    expect(await fileRows()).toBe(0);
  });

  it('answers 400 when the body ends inside a part that is skipped (another field name, or no file chosen)', async () => {
    const otherField = await sendWhole(truncatedBody(Buffer.concat([Buffer.from(partHead('avatar', 'me.png')), samples.png])));
    expect(otherField.status).toBe(400);
    expect(JSON.parse(otherField.body)).toMatchObject({
      code: 'bad_request',
      message: 'Unexpected file field avatar; send files as "files"',
    });
    const noFileChosen = await sendWhole(truncatedBody(Buffer.from(`${partHead('files', '')}partial`)));
    expect(noFileChosen.status).toBe(400);
    expect(JSON.parse(noFileChosen.body)).toEqual({ message: 'The upload could not be read: Unexpected end of form', code: 'bad_request' });
    await expectServerStillAnswers();
    expect(incomingFiles()).toEqual([]);
  });

  it('survives a client that leaves inside a skipped part, and removes the file it had started', async () => {
    const sent = truncatedBody(
      Buffer.concat([
        Buffer.from(partHead('files', 'first.png')),
        samples.png,
        Buffer.from(`\r\n${partHead('avatar', 'me.png')}`),
        samples.png,
      ]),
    );
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    // Promises far more than it sends, so the server is still waiting for the body when the client goes.
    socket.write(Buffer.concat([Buffer.from(uploadHead(sent.length + 1024 * 1024)), sent]));
    // The first file's temporary file shows the server has read (and parsed) everything sent.
    await waitUntil(() => incomingFiles().length > 0, 'the first file to be received');
    socket.destroy();
    await waitUntil(
      () => t.logLines.some((line) => line.includes('"url":"/api/upload"') && line.includes('request aborted by the client')),
      'the aborted upload to be logged',
    );
    await waitUntil(() => incomingFiles().length === 0, 'the temporary file to be removed');
    await expectServerStillAnswers();
    expect(await fileRows()).toBe(0);
  });

  it('answers 400 when a CSV upload to a bulk import ends inside its file or inside a part it skips', async () => {
    const csv = Buffer.from('Brand,Industry\nStride,Footwear\nPace');
    const insideFile = await sendWhole(Buffer.concat([Buffer.from(partHead('file', 'brands.csv')), csv]), '/api/brands/bulk-import');
    expect(insideFile.status).toBe(400);
    expect(JSON.parse(insideFile.body)).toMatchObject({ code: 'bad_request' });
    const insideSkipped = await sendWhole(Buffer.concat([Buffer.from(partHead('upload', 'brands.csv')), csv]), '/api/brands/bulk-import');
    expect(insideSkipped.status).toBe(400);
    expect(JSON.parse(insideSkipped.body)).toMatchObject({ code: 'bad_request' });
    await expectServerStillAnswers();
  });

  it('answers 400 to a complete upload holding a part with an empty name, as a file or as a field', async () => {
    for (const part of [`${partHead('', 'a.png')}abc\r\n`, `${partHead('')}${'x'.repeat(2000)}\r\n`]) {
      const answer = await sendWhole(truncatedBody(Buffer.from(`${part}--${BOUNDARY}--\r\n`)));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'bad_request' });
    }
    await expectServerStillAnswers();
    expect(await fileRows()).toBe(0);
  });

  it('answers 400 to a page request whose Host header is no host name', async () => {
    const answer = await sendRaw(`GET /events HTTP/1.1\r\nHost: a b\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    await expectServerStillAnswers();
  });
});

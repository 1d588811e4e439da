import { existsSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalDirectoryStorage } from '@services/files/storage.js';
import { purgeDeleted } from '@services/trash/service.js';
import { createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';
import { insertOwner, samples } from './attachments-fixtures.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('files API', () => {
  let t: TestApp;
  let agent: Agent;
  let eventId: number;

  /** Everything in the upload directory, temporary files included. */
  const storedNames = () => {
    const names = readdirSync(t.uploadDir).filter((name) => name !== '.incoming');
    const incoming = path.join(t.uploadDir, '.incoming');
    return [...names, ...(existsSync(incoming) ? readdirSync(incoming).map((n) => `.incoming/${n}`) : [])];
  };
  const fileRows = () =>
    t.database
      .db('files')
      .count({ n: '*' })
      .first()
      .then((row) => Number(row?.n));
  const upload = (
    files: Array<[Buffer, string, string?]>,
    fields: Record<string, string | number> = { entityType: 'event', entityId: eventId },
  ) => {
    const req = agent.post('/api/upload');
    for (const [key, value] of Object.entries(fields)) req.field(key, String(value));
    for (const [bytes, name, contentType] of files)
      req.attach('files', bytes, { filename: name, contentType: contentType ?? 'application/octet-stream' });
    return req;
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
    eventId = await insertOwner(t.database.db, 'event');
  });
  afterAll(async () => t.close());

  it('stores several files under generated names, lists them and serves them with their detected type', async () => {
    const res = await upload([
      [samples.png, 'finish line.png'],
      [samples.jpeg, 'Start Gün.jpeg'],
      [samples.gif, 'spinner.gif'],
      [samples.mp4, 'course.mp4'],
      [samples.mov, 'clip.mov'],
      [samples.avi, 'old.avi'],
    ]);
    expect(res.status).toBe(201);
    const files = res.body.files as Array<Record<string, unknown>>;
    expect(files.map((f) => [f.originalName, f.fileType, f.fileCategory, f.fileSize])).toEqual([
      ['finish line.png', 'image/png', 'image', samples.png.length],
      ['Start Gün.jpeg', 'image/jpeg', 'image', samples.jpeg.length],
      ['spinner.gif', 'image/gif', 'image', samples.gif.length],
      ['course.mp4', 'video/mp4', 'video', samples.mp4.length],
      ['clip.mov', 'video/quicktime', 'video', samples.mov.length],
      ['old.avi', 'video/x-msvideo', 'video', samples.avi.length],
    ]);
    for (const file of files) {
      expect(file.fileName).toMatch(/^[0-9a-f-]{36}\.(png|jpg|gif|mp4|mov|avi)$/);
      expect(file).not.toHaveProperty('filePath');
      expect(file.url).toBe(`/api/uploads/${file.id}`);
    }
    expect(storedNames().sort()).toEqual(files.map((f) => f.fileName).sort());

    const list = await agent.get(`/api/files/event/${eventId}`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(6);

    const content = await agent.get(`/api/uploads/${files[1]!.id}`).buffer(true);
    expect(content.status).toBe(200);
    expect(content.headers['content-type']).toBe('image/jpeg');
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    expect(content.headers['content-disposition']).toBe(`inline; filename="Start G_n.jpeg"; filename*=UTF-8''Start%20G%C3%BCn.jpeg`);
    expect(Buffer.compare(content.body as Buffer, samples.jpeg)).toBe(0);
    const download = await agent.get(`/api/uploads/${files[0]!.id}?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; /);
    expect((await t.agent().get(`/api/uploads/${files[0]!.id}`)).status).toBe(401);
  });

  it('serves byte ranges so videos can seek', async () => {
    const res = await upload([[samples.mp4, 'seek.mp4']]);
    const url = `/api/uploads/${res.body.files[0].id}`;
    const part = await agent.get(url).set('Range', 'bytes=4-11').buffer(true);
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${samples.mp4.length}`);
    expect(Buffer.compare(part.body as Buffer, samples.mp4.subarray(4, 12))).toBe(0);
    const tail = await agent.get(url).set('Range', 'bytes=-4').buffer(true);
    expect(Buffer.compare(tail.body as Buffer, samples.mp4.subarray(-4))).toBe(0);
    const open = await agent.get(url).set('Range', 'bytes=10-').buffer(true);
    expect(open.headers['content-length']).toBe(String(samples.mp4.length - 10));
    const outside = await agent.get(url).set('Range', `bytes=${samples.mp4.length}-`);
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${samples.mp4.length}`);
    const several = await agent.get(url).set('Range', 'bytes=0-1,4-5').buffer(true);
    expect(several.status).toBe(200);
    expect(several.headers['accept-ranges']).toBe('bytes');
  });

  it('closes the connection, and keeps serving, when the stored bytes vanish between the check and the read', async () => {
    const res = await upload([[samples.png, 'vanishing.png']]);
    const file = res.body.files[0];
    rmSync(path.join(t.uploadDir, file.fileName));
    // The size check still finds the file, as it would just before another process removed it.
    const size = vi.spyOn(LocalDirectoryStorage.prototype, 'size').mockResolvedValueOnce(samples.png.length);
    try {
      const failed = await agent.get(`/api/uploads/${file.id}`).then(
        (answer) => answer.status,
        (error: Error) => error.message,
      );
      expect(failed).toBe('socket hang up');
    } finally {
      size.mockRestore();
    }
    expect((await agent.get(`/api/uploads/${file.id}`)).status).toBe(404);
  });

  it('deletes the row and its bytes together', async () => {
    const res = await upload([[samples.png, 'gone.png']]);
    const file = res.body.files[0];
    expect(storedNames()).toContain(file.fileName);
    expect((await agent.delete(`/api/files/${file.id}`)).status).toBe(204);
    expect(storedNames()).not.toContain(file.fileName);
    expect(await t.database.db('files').where({ id: file.id }).first()).toBeUndefined();
    expect((await agent.delete(`/api/files/${file.id}`)).status).toBe(404);
    expect((await agent.get(`/api/uploads/${file.id}`)).status).toBe(404);
  });

  it('keeps the committed rows and their bytes when something fails after the commit', async () => {
    const before = await fileRows();
    const info = t.ctx.log.info.bind(t.ctx.log);
    const spy = vi.spyOn(t.ctx.log, 'info').mockImplementation(((obj: unknown, ...rest: unknown[]) => {
      if ((obj as { event?: string } | undefined)?.event === 'files_uploaded') throw new Error('log sink down');
      return (info as (...args: unknown[]) => void)(obj, ...rest);
    }) as typeof t.ctx.log.info);
    try {
      expect((await upload([[samples.png, 'kept.png']])).status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await fileRows()).toBe(before + 1);
    const row = (await t.database.db('files').orderBy('id', 'desc').first()) as { fileName: string };
    expect(storedNames()).toContain(row.fileName);
  });

  it('decides the type by the bytes: a renamed HTML file or an SVG is refused, a PNG named .txt is accepted', async () => {
    const before = [storedNames().length, await fileRows()];
    const html = await upload([[samples.html, 'photo.jpg', 'image/jpeg']]);
    expect(html.status).toBe(400);
    expect(html.body.message).toBe('File photo.jpg is not a supported format');
    const svg = await upload([[samples.svg, 'logo.png', 'image/png']]);
    expect(svg.body.message).toBe('File logo.png is not a supported format');
    const zip = await upload([[samples.zip, 'archive.mp4', 'video/mp4']]);
    expect(zip.body.message).toBe('File archive.mp4 is not a supported format');
    const empty = await upload([[Buffer.alloc(0), 'empty.png', 'image/png']]);
    expect(empty.body.message).toBe('File empty.png is not a supported format');
    expect([storedNames().length, await fileRows()]).toEqual(before);
    const disguised = await upload([[samples.png, 'notes.txt', 'text/plain']]);
    expect(disguised.status).toBe(201);
    expect(disguised.body.files[0]).toMatchObject({ fileType: 'image/png', originalName: 'notes.txt' });
    expect(disguised.body.files[0].fileName).toMatch(/\.png$/);
  });

  it('stores none of the files of a request with any bad file', async () => {
    const before = [storedNames().length, await fileRows()];
    const res = await upload([
      [samples.png, 'good.png'],
      [samples.html, 'bad.gif'],
      [samples.jpeg, 'also-good.jpg'],
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('File bad.gif is not a supported format');
    expect([storedNames().length, await fileRows()]).toEqual(before);
  });

  it('refuses an 11 MB file while streaming and keeps nothing', async () => {
    const before = [storedNames().length, await fileRows()];
    const big = Buffer.concat([samples.png, Buffer.alloc(11 * 1024 * 1024)]);
    const res = await upload([
      [samples.png, 'small.png'],
      [big, 'huge.png'],
    ]);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('File huge.png is too large (max 10MB)');
    expect([storedNames().length, await fileRows()]).toEqual(before);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const exact = Buffer.concat([samples.png, Buffer.alloc(10 * 1024 * 1024 - samples.png.length)]);
    const res = await upload([[exact, 'exact.png']]);
    expect(res.status).toBe(201);
    expect(res.body.files[0].fileSize).toBe(10 * 1024 * 1024);
  });

  it('keeps a path-traversal, control-character or 300-character name only as clean metadata', async () => {
    const long = `${'a'.repeat(300)}.png`;
    const res = await upload([
      [samples.png, '../../../etc/passwd.png'],
      [samples.png, '..\\..\\windows\\evil.png'],
      [samples.png, 'tab\tbyte.png'],
      [samples.png, long],
    ]);
    expect(res.status, res.text).toBe(201);
    const names = res.body.files.map((f: { originalName: string }) => f.originalName);
    expect(names.slice(0, 3)).toEqual(['passwd.png', 'evil.png', 'tabbyte.png']);
    expect(names[3]).toHaveLength(255);
    expect(names[3].endsWith('.png')).toBe(true);
    for (const file of res.body.files) expect(file.fileName).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(existsSync(path.join(t.uploadDir, '..', 'etc'))).toBe(false);
    expect(storedNames().every((name) => /^[0-9a-f-]{36}\.[a-z0-9]+$/.test(name))).toBe(true);
  });

  it('refuses a NUL in a part header as a malformed upload and keeps nothing', async () => {
    const before = [storedNames().length, await fileRows()];
    const res = await upload([[samples.png, 'nul\u0000byte.png']]);
    expect(res.status).toBe(400);
    expect([storedNames().length, await fileRows()]).toEqual(before);
  });

  it('answers 4xx for a missing selection, owner or field, and for too many files', async () => {
    const before = [storedNames().length, await fileRows()];
    const none = await upload([]);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Please select at least one file');
    const emptyPart = await agent
      .post('/api/upload')
      .field('entityType', 'event')
      .field('entityId', String(eventId))
      .attach('files', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' });
    expect(emptyPart.body.message).toBe('Please select at least one file');
    expect((await upload([[samples.png, 'a.png']], { entityType: 'event', entityId: 999_999 })).status).toBe(404);
    expect((await upload([[samples.png, 'a.png']], { entityType: 'planet', entityId: eventId })).status).toBe(400);
    expect((await upload([[samples.png, 'a.png']], { entityType: 'event', entityId: 'x' })).status).toBe(400);
    const many = await upload(Array.from({ length: 21 }, (_, i) => [samples.png, `${i}.png`] as [Buffer, string]));
    expect(many.status).toBe(413);
    const manyFields = agent.post('/api/upload');
    for (let i = 0; i < 50; i++) manyFields.field(`f${i}`, 'x');
    expect((await manyFields.attach('files', samples.png, 'a.png')).status).toBe(413);
    const longField = await upload([[samples.png, 'a.png']], { entityType: 'event', entityId: 'x'.repeat(5000) });
    expect(longField.status).toBe(400);
    const json = await agent.post('/api/upload').send({ files: [] });
    expect(json.status).toBe(400);
    expect((await agent.get('/api/files/event/999999')).status).toBe(404);
    // Every refused upload above left neither a row nor stored bytes (temporary files included).
    expect([storedNames().length, await fileRows()]).toEqual(before);
    expect(storedNames().filter((name) => name.startsWith('.incoming/'))).toEqual([]);
  });

  it('deleting the owning record removes its rows but keeps the bytes for a restore, until the purge', async () => {
    const brand = await insertOwner(t.database.db, 'brand', 'Doomed brand');
    const owner = { entityType: 'brand', entityId: brand };
    expect((await agent.post('/api/contacts').send({ ...owner, firstName: 'A', lastName: 'B' })).status).toBe(201);
    expect((await agent.post('/api/payments').send({ ...owner, description: 'x', amount: '1.00' })).status).toBe(201);
    const uploaded = await upload(
      [
        [samples.png, 'a.png'],
        [samples.gif, 'b.gif'],
      ],
      owner,
    );
    const names = uploaded.body.files.map((f: { fileName: string }) => f.fileName);
    expect(storedNames()).toEqual(expect.arrayContaining(names));
    expect((await agent.delete(`/api/brands/${brand}`)).status).toBe(204);
    for (const table of ['contacts', 'payments', 'files']) expect(await t.database.db(table).where(owner)).toEqual([]);
    expect(storedNames()).toEqual(expect.arrayContaining(names));

    // An admin restores it: the file rows come back with their ids and the kept bytes serve again.
    const { agent: admin } = await t.signedInAgent('trash.admin@example.org', 'admin');
    const [deleted] = (await admin.get('/api/deleted')).body as Array<{ id: number; name: string; holds: unknown }>;
    expect(deleted).toMatchObject({ name: 'Doomed brand', holds: { contacts: 1, payments: 1, files: 2 } });
    expect((await admin.post(`/api/deleted/${deleted!.id}/restore`)).status).toBe(200);
    const fileId = uploaded.body.files[0].id as number;
    expect((await agent.get(`/api/uploads/${fileId}`)).status).toBe(200);

    // Deleted again and purged once older than 30 days: the bytes go too.
    expect((await agent.delete(`/api/brands/${brand}`)).status).toBe(204);
    t.clock.advance(31 * 86_400_000);
    const purged = await purgeDeleted(t.ctx, { olderThanMs: 30 * 86_400_000, dryRun: false });
    expect(purged.files).toBe(2);
    for (const name of names) expect(storedNames()).not.toContain(name);
  });

  it('leaves no row and no bytes behind when the client aborts mid-upload', async () => {
    const server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const login = await supertest(t.app)
        .post('/api/login')
        .set('Host', '127.0.0.1')
        .set('Origin', TEST_ORIGIN)
        .send({ email: 'staff1@example.org', password: TEST_PASSWORD });
      const cookie = (login.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
      const before = [storedNames().length, await fileRows()];
      const boundary = 'abortboundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="entityType"\r\n\r\nevent\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="entityId"\r\n\r\n${eventId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/upload',
        headers: {
          Host: `127.0.0.1:${port}`,
          Origin: `http://127.0.0.1:${port}`,
          Cookie: cookie,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + 5 * 1024 * 1024),
        },
      });
      req.on('error', () => undefined);
      req.write(head);
      req.write(samples.png);
      req.write(Buffer.alloc(512 * 1024));
      // Wait until the server has started writing the temporary file, then drop the connection.
      await waitUntil(() => storedNames().some((name) => name.startsWith('.incoming/')), 'the temporary file to be written');
      req.destroy();
      await waitUntil(() => storedNames().length === before[0], 'the temporary file to be removed');
      expect([storedNames().length, await fileRows()]).toEqual(before);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

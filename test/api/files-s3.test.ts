import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockOwner } from '@services/attachments/owners.js';
import { cliActor } from '@services/context.js';
import { storageOf, storeUpload } from '@services/files/service.js';
import { closeStorage } from '@services/files/storage.js';
import { purgeDeleted } from '@services/trash/service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { waitUntil } from '../helpers/wait.js';
import { insertOwner, samples } from './attachments-fixtures.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('files on S3 (STORAGE=s3, a real S3-compatible server)', () => {
  let s3: TestS3;
  let t: TestApp;
  let agent: Agent;
  let eventId: number;

  /** The upload directory holds only the scratch space now, and nothing is left in it. */
  const localLeftovers = () => {
    const incoming = path.join(t.uploadDir, '.incoming');
    return [...readdirSync(t.uploadDir).filter((name) => name !== '.incoming'), ...(existsSync(incoming) ? readdirSync(incoming) : [])];
  };
  const fileRows = async () => Number((await t.database.db('files').count({ n: '*' }).first())?.n);
  const upload = (files: Array<[Buffer, string]>, owner: number = eventId) => {
    const req = agent.post('/api/upload').field('entityType', 'event').field('entityId', String(owner));
    for (const [bytes, name] of files) req.attach('files', bytes, { filename: name, contentType: 'application/octet-stream' });
    return req;
  };
  /** A received upload, as the route hands it to the service. */
  const received = async (bytes: Buffer, owner: number) => {
    const storage = await storageOf(t.ctx);
    const file = await storage.receive(Readable.from([bytes]));
    return { fields: { entityType: 'event', entityId: String(owner) }, files: [{ ...file, originalName: 'photo.png' }] };
  };

  beforeAll(async () => {
    s3 = await startTestS3();
    t = await createTestApp({ env: s3.env });
    ({ agent } = await t.signedInAgent());
    eventId = await insertOwner(t.database.db, 'event');
  });
  afterAll(async () => {
    await closeStorage(t.config);
    await t.close();
    await s3.close();
  });

  it('uploads through the app into the bucket and serves the bytes back, whole and by range', async () => {
    const res = await upload([
      [samples.png, 'finish.png'],
      [samples.mp4, 'course.mp4'],
    ]);
    expect(res.status).toBe(201);
    const [png, mp4] = res.body.files as Array<{ id: number; fileName: string }>;
    expect(await s3.keys()).toEqual([png!.fileName, mp4!.fileName].sort());
    expect(Buffer.compare(await s3.get(mp4!.fileName), samples.mp4)).toBe(0);
    expect(localLeftovers()).toEqual([]);

    const whole = await agent.get(`/api/uploads/${png!.id}`).buffer(true);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('image/png');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Buffer.compare(whole.body as Buffer, samples.png)).toBe(0);

    const part = await agent.get(`/api/uploads/${mp4!.id}`).set('Range', 'bytes=4-11').buffer(true);
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${samples.mp4.length}`);
    expect(part.headers['content-length']).toBe('8');
    expect(Buffer.compare(part.body as Buffer, samples.mp4.subarray(4, 12))).toBe(0);
    const tail = await agent.get(`/api/uploads/${mp4!.id}`).set('Range', 'bytes=-4').buffer(true);
    expect(Buffer.compare(tail.body as Buffer, samples.mp4.subarray(-4))).toBe(0);
    const outside = await agent.get(`/api/uploads/${mp4!.id}`).set('Range', `bytes=${samples.mp4.length}-`);
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${samples.mp4.length}`);

    expect((await agent.delete(`/api/files/${png!.id}`)).status).toBe(204);
    expect(await s3.keys()).toEqual([mp4!.fileName]);
    expect((await agent.get(`/api/uploads/${png!.id}`)).status).toBe(404);
    await s3.remove(mp4!.fileName);
    expect((await agent.get(`/api/uploads/${mp4!.id}`)).body).toEqual({ message: 'The stored file is missing', code: 'not_found' });
    await t.database.db('files').delete();
  });

  it('checks uploads by their bytes and size before anything reaches the bucket', async () => {
    const bad = await upload([
      [samples.png, 'fine.png'],
      [Buffer.from('<html>not a picture</html>'), 'sneaky.png'],
    ]);
    expect(bad.status).toBe(400);
    const tooLarge = await upload([[Buffer.concat([samples.png, Buffer.alloc(10 * 1024 * 1024)]), 'huge.png']]);
    expect(tooLarge.status).toBe(413);
    expect(await s3.keys()).toEqual([]);
    expect(await fileRows()).toBe(0);
    expect(localLeftovers()).toEqual([]);
  });

  it('removes the uploaded object when the transaction that records it rolls back', async () => {
    const db = t.database.db;
    // A real failure inside the transaction, after the bytes are in the bucket: the database refuses the row.
    if (t.database.dialect === 'mysql')
      await db.raw("CREATE TRIGGER refuse_files BEFORE INSERT ON files FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'");
    else await db.raw("CREATE TRIGGER refuse_files BEFORE INSERT ON files BEGIN SELECT RAISE(ABORT, 'refused'); END");
    try {
      await expect(storeUpload(t.ctx, cliActor(), await received(samples.png, eventId))).rejects.toThrow(/refused/);
    } finally {
      await db.raw('DROP TRIGGER refuse_files');
    }
    expect(await s3.keys()).toEqual([]);
    expect(await fileRows()).toBe(0);
    expect(localLeftovers()).toEqual([]);

    // The owner went away meanwhile: the same clean-up.
    await expect(storeUpload(t.ctx, cliActor(), await received(samples.png, 999_999))).rejects.toMatchObject({ status: 404 });
    expect(await s3.keys()).toEqual([]);
  });

  it('uploads without holding the owner lock: the bytes reach the bucket while another writer holds it', async () => {
    const holder = await t.database.db.transaction();
    let stored = false;
    let storing: Promise<unknown>;
    try {
      await lockOwner(holder, 'event', eventId);
      storing = storeUpload(t.ctx, cliActor(), await received(samples.gif, eventId)).then((files) => {
        stored = true;
        return files;
      });
      await waitUntil(async () => (await s3.keys()).length === 1, 'the upload to reach the bucket while the owner is locked');
      expect(stored).toBe(false);
    } finally {
      await holder.commit();
    }
    const [file] = (await storing!) as Array<{ fileName: string }>;
    expect(await s3.keys()).toEqual([file!.fileName]);
    await t.database.db('files').delete();
    await s3.remove(file!.fileName);
  });

  it('keeps the bytes of a deleted record in the bucket until `pacer trash purge` removes them', async () => {
    const ownerId = await insertOwner(t.database.db, 'event', 'Trashed race');
    const res = await upload([[samples.jpeg, 'podium.jpeg']], ownerId);
    const key = (res.body.files as Array<{ fileName: string }>)[0]!.fileName;
    expect((await agent.delete(`/api/events/${ownerId}`)).status).toBe(204);
    expect(await s3.keys()).toEqual([key]);
    t.clock.advance(1000);
    const purged = await purgeDeleted(t.ctx, { olderThanMs: 0, dryRun: false });
    expect(purged.files).toBe(1);
    expect(await s3.keys()).toEqual([]);
  });
});

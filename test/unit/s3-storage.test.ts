import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '@config/env.js';
import { closeStorage, newStorageKey, openStorage, type FileStorage } from '@services/files/storage.js';
import { testConfig } from '../helpers/app.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';

const log = pino({ level: 'silent' });

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('S3 file storage (against a real S3-compatible server)', () => {
  let s3: TestS3;
  let uploadDir: string;
  let config: Config;
  let storage: FileStorage;
  const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

  beforeAll(async () => {
    s3 = await startTestS3();
    uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-s3-scratch-'));
    config = testConfig({ UPLOAD_DIR: uploadDir, ...s3.env });
    storage = await openStorage(config, log);
  });
  afterAll(async () => {
    await closeStorage(config);
    await s3.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('is the configured backend, opened once per configuration', async () => {
    expect(storage.backend).toBe('s3');
    expect(storage.location).toBe(`s3://${s3.bucket}`);
    expect(await openStorage(config, log)).toBe(storage);
    expect((await openStorage(config, log, 'local')).location).toBe(uploadDir);
  });

  it("says in the log, not in a multi-line stderr warning, that the SDK's 2027 releases need Node 22", async () => {
    const lines: string[] = [];
    const capture = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const own = testConfig({ UPLOAD_DIR: uploadDir, ...s3.env });
    await openStorage(own, capture);
    await closeStorage(own);
    const said = lines.map((line) => JSON.parse(line) as { msg: string }).filter((line) => line.msg.includes('need Node 22'));
    expect(said).toHaveLength(Number(process.versions.node.split('.')[0]) < 22 ? 1 : 0);
  });

  it('receives an upload on local scratch disk, then puts it in the bucket and removes the scratch file', async () => {
    const { tempPath, size } = await storage.receive(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(size).toBe(bytes.length);
    expect(await s3.keys()).toEqual([]);
    const key = newStorageKey('png');
    await storage.promote(tempPath, key);
    expect(existsSync(tempPath)).toBe(false);
    expect(await s3.keys()).toEqual([key]);
    expect(Buffer.compare(await s3.get(key), bytes)).toBe(0);
    expect(await storage.size(key)).toBe(bytes.length);
    expect((await storage.list()).map((entry) => entry.key)).toEqual([key]);
    await storage.remove(key);
  });

  it('reads the whole object or one inclusive byte range of it', async () => {
    const key = newStorageKey('mp4');
    await s3.put(key, bytes);
    expect(Buffer.compare(await readAll(storage.read(key)), bytes)).toBe(0);
    expect(Buffer.compare(await readAll(storage.read(key, { start: 100, end: 199 })), bytes.subarray(100, 200))).toBe(0);
    expect(Buffer.compare(await readAll(storage.read(key, { start: 4990, end: 4999 })), bytes.subarray(4990))).toBe(0);
    await storage.remove(key);
  });

  it('writes a stream under a key, and removes keys whether or not they are there', async () => {
    const key = newStorageKey('gif');
    await storage.write(key, Readable.from([bytes]), bytes.length);
    expect(Buffer.compare(await s3.get(key), bytes)).toBe(0);
    await expect(storage.write(newStorageKey('gif'), Readable.from([bytes]), bytes.length + 1)).rejects.toThrow(/expected 5001 bytes/);
    expect(await s3.keys()).toEqual([key]);
    await storage.remove(key);
    await storage.remove(key);
    expect(await s3.keys()).toEqual([]);
    expect(readdirSync(path.join(uploadDir, '.incoming'))).toEqual([]);
  });

  it('says a missing key is missing, and fails its read as a stream error', async () => {
    const key = newStorageKey('jpg');
    expect(await storage.size(key)).toBeNull();
    await expect(readAll(storage.read(key))).rejects.toThrow();
  });

  it('refuses keys it did not generate before they reach the bucket', async () => {
    for (const key of ['../x.png', 'a/b.png', 'notes.txt']) {
      await expect(storage.size(key), key).rejects.toThrow(/Refused storage key/);
      await expect(storage.remove(key), key).rejects.toThrow(/Refused storage key/);
      expect(() => storage.read(key), key).toThrow(/Refused storage key/);
    }
  });

  it('answers 503 with a readable message when the store cannot be reached', async () => {
    const closed = testConfig({ UPLOAD_DIR: uploadDir, ...s3.env, S3_ENDPOINT: 'http://127.0.0.1:1' });
    const unreachable = await openStorage(closed, log);
    try {
      await expect(unreachable.list()).rejects.toMatchObject({ status: 503, message: expect.stringMatching(/could not list the files/) });
      await expect(unreachable.size(newStorageKey('png'))).rejects.toMatchObject({ status: 503 });
    } finally {
      await closeStorage(closed);
    }
    const wrongBucket = testConfig({ UPLOAD_DIR: uploadDir, ...s3.env, S3_BUCKET: 'no-such-bucket' });
    try {
      await expect((await openStorage(wrongBucket, log)).list()).rejects.toMatchObject({
        status: 503,
        message: 'The file store (s3://no-such-bucket) could not list the files (NoSuchBucket): try again later',
      });
    } finally {
      await closeStorage(wrongBucket);
    }
  });
});

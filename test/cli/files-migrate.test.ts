import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@cli/program.js';
import { fakeIO } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startCorruptingProxy, startTestS3, type TestS3 } from '../helpers/s3.js';
import { insertFileRow, insertTrashedFile } from '../helpers/stored-files.js';

/**
 * `pacer files migrate` and `pacer files check` against a real S3-compatible server (s3rver), with a faulty
 * network (a proxy that flips a byte) in front of it where a corrupted copy must be caught.
 */
describe('pacer files migrate / files check on S3', () => {
  let database: TestDatabase;
  let s3: TestS3;
  let uploadDir: string;
  let base: NodeJS.ProcessEnv;
  /** key → its bytes, as uploaded to the local store. */
  const stored = new Map<string, Buffer>();
  const ids = new Map<string, number>();
  const keys = () => [...stored.keys()].sort();

  const run = async (args: string[], env: NodeJS.ProcessEnv) => {
    const io = fakeIO(env);
    const code = await runCli(args, io.io);
    return { code, stdout: io.stdout(), stderr: io.stderr() };
  };
  const local = (extra: Record<string, string> = {}) => ({ ...base, ...s3.env, STORAGE: 'local', ...extra });
  const onS3 = (extra: Record<string, string> = {}) => ({ ...base, ...s3.env, ...extra });

  beforeAll(async () => {
    database = await createTestDatabase();
    s3 = await startTestS3();
    uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-migrate-'));
    base = { NODE_ENV: 'test', DATABASE_URL: database.url, UPLOAD_DIR: uploadDir, SESSION_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent' };
    for (const size of [10, 70_000, 3000]) {
      const key = `${randomUUID()}.png`;
      const bytes = randomBytes(size);
      writeFileSync(path.join(uploadDir, key), bytes);
      stored.set(key, bytes);
      ids.set(key, await insertFileRow(database.db, key, size));
    }
    // A file of a deleted record, kept for a restore: it must move too.
    const trashed = `${randomUUID()}.jpg`;
    stored.set(trashed, randomBytes(500));
    writeFileSync(path.join(uploadDir, trashed), stored.get(trashed)!);
    await insertTrashedFile(database.db, trashed);
  });
  afterAll(async () => {
    await database.destroy();
    await s3.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('refuses a backend it does not know, and s3 without a bucket, with the usage exit code', async () => {
    const unknown = await run(['files', 'migrate', '--to', 'ftp'], local());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--to must be s3 or local');
    const noBucket = await run(['files', 'migrate', '--to', 's3'], local({ S3_BUCKET: '' }));
    expect(noBucket.code).toBe(2);
    expect(noBucket.stderr).toContain('S3_BUCKET must be set to migrate files to s3');
  });

  it('to s3: a copy corrupted on the way is caught by its checksum, removed and named; a re-run copies only it', async () => {
    const [victim] = keys().filter((key) => ids.has(key));
    const proxy = await startCorruptingProxy(
      s3.endpoint,
      ({ method, url, direction }) => method === 'PUT' && direction === 'request' && url.includes(victim!),
    );
    try {
      const first = await run(['files', 'migrate', '--to', 's3'], local({ S3_ENDPOINT: proxy.endpoint }));
      expect(first.code).toBe(3);
      const name = `file ${ids.get(victim!)} (${victim})`;
      expect(first.stdout).toContain(`${name}: the copy read back from s3://${s3.bucket} does not match its source (SHA-256)`);
      expect(first.stdout).toContain('copied and verified: 3');
      expect(first.stdout).toContain('Nothing was switched.');
      expect(first.stderr).toContain(`Failed: ${name}`);
      expect(first.stderr).toContain('Checked 4 of 4 files');
      expect(first.stderr).toContain(`1 file(s) failed: ${name}`);
      // The bad copy is not left where it could be served.
      expect(await s3.keys()).toEqual(keys().filter((key) => key !== victim));
    } finally {
      await proxy.close();
    }

    const second = await run(['files', 'migrate', '--to', 's3', '--json'], local());
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ total: 4, copied: 1, alreadyThere: 3, failures: [], switched: false });
    expect(await s3.keys()).toEqual(keys());
    for (const [key, bytes] of stored) expect(Buffer.compare(await s3.get(key), bytes), key).toBe(0);

    const third = await run(['files', 'migrate', '--to', 's3'], local());
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('already there (same checksum): 4');
    expect(third.stdout).toContain('To switch, set STORAGE=s3 on every web and worker process and restart them');
    // The source is never touched.
    expect(
      readdirSync(uploadDir)
        .filter((name) => !name.startsWith('.'))
        .sort(),
    ).toEqual(keys());
  });

  it('to s3: a copy that went bad in the bucket since (same size, other bytes) is found and copied again', async () => {
    const [key] = keys();
    await s3.put(key!, Buffer.alloc(stored.get(key!)!.length, 1));
    const res = await run(['files', 'migrate', '--to', 's3', '--json'], local());
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ copied: 1, alreadyThere: 3 });
    expect(Buffer.compare(await s3.get(key!), stored.get(key!)!)).toBe(0);
  });

  it('names a file missing from both stores and exits 3, leaving the rest verified', async () => {
    const lost = `${randomUUID()}.gif`;
    const lostId = await insertFileRow(database.db, lost, 5);
    try {
      const res = await run(['files', 'migrate', '--to', 's3'], local());
      expect(res.code).toBe(3);
      expect(res.stdout).toContain(`file ${lostId} (${lost}): missing from both ${uploadDir} and s3://${s3.bucket}`);
      expect(res.stdout).toContain('already there (same checksum): 4');
    } finally {
      await database.db('files').where({ id: lostId }).delete();
    }
  });

  it('files check on s3 reports and fixes drift, leaving the files kept in Recently deleted alone', async () => {
    const orphan = `${randomUUID()}.mp4`;
    await s3.put(orphan, Buffer.from('orphan'));
    const missing = `${randomUUID()}.png`;
    const missingId = await insertFileRow(database.db, missing, 5);

    const report = await run(['files', 'check', '--grace-minutes', '0'], onS3());
    expect(report.code).toBe(1);
    expect(report.stdout).toContain(`Store: s3://${s3.bucket}`);
    expect(report.stdout).toContain(`Stored files without a row: 1\n  ${orphan}`);
    expect(report.stdout).toContain(`Rows without stored bytes: 1\n  file ${missingId}: ${missing}`);

    const fix = await run(['files', 'check', '--fix', '--grace-minutes', '0', '--json'], onS3());
    expect(fix.code).toBe(0);
    expect(JSON.parse(fix.stdout).fixed).toEqual({ bytesRemoved: 1, rowsRemoved: 1, incomingRemoved: 0 });
    expect(await s3.keys()).toEqual(keys());
    expect((await run(['files', 'check', '--grace-minutes', '0'], onS3())).code).toBe(0);
  });

  it('to local: a download corrupted on the way is caught; a re-run completes and says STORAGE is already local', async () => {
    // A fresh local store, as on a machine that has only ever used S3.
    const fresh = mkdtempSync(path.join(tmpdir(), 'pacer-migrate-back-'));
    try {
      const [victim] = keys().filter((key) => ids.has(key));
      let corrupted = false;
      const proxy = await startCorruptingProxy(s3.endpoint, ({ method, url, direction }) => {
        // Only the first download of it: the copy is read bad, the check's own read of the source is sound.
        if (corrupted || method !== 'GET' || direction !== 'response' || !url.includes(victim!)) return false;
        return (corrupted = true);
      });
      try {
        const first = await run(['files', 'migrate', '--to', 'local'], onS3({ S3_ENDPOINT: proxy.endpoint, UPLOAD_DIR: fresh }));
        expect(first.code).toBe(3);
        expect(first.stdout).toContain(
          `file ${ids.get(victim!)} (${victim}): the copy read back from ${fresh} does not match its source (SHA-256)`,
        );
        expect(existsSync(path.join(fresh, victim!))).toBe(false);
      } finally {
        await proxy.close();
      }
      const second = await run(['files', 'migrate', '--to', 'local'], onS3({ UPLOAD_DIR: fresh }));
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('copied and verified: 1');
      expect(second.stdout).toContain('already there (same checksum): 3');
      for (const [key, bytes] of stored) expect(Buffer.compare(readFileSync(path.join(fresh, key)), bytes), key).toBe(0);

      // Once switched, a file uploaded only to the new store is not a failure of the old one.
      const uploadedSince = `${randomUUID()}.png`;
      writeFileSync(path.join(fresh, uploadedSince), 'new bytes');
      const sinceId = await insertFileRow(database.db, uploadedSince, 9);
      const afterSwitch = await run(['files', 'migrate', '--to', 'local'], { ...base, UPLOAD_DIR: fresh, ...s3.env, STORAGE: 'local' });
      await database.db('files').where({ id: sinceId }).delete();
      expect(afterSwitch.code).toBe(0);
      expect(afterSwitch.stdout).toContain(`only in ${fresh} (uploaded there): 1`);
      expect(afterSwitch.stdout).toContain('STORAGE is already local: nothing to switch.');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { S3Settings } from '@config/env.js';
import { serviceUnavailable } from '../errors.js';
import { assertStorageKey, ReceivingStorage, type FileStorage } from './storage.js';

type S3Sdk = typeof import('@aws-sdk/client-s3');

/**
 * Uploaded files in an S3 bucket (AWS, or any S3-compatible service through S3_ENDPOINT), so every web process and
 * worker sees the same files. Uploads still arrive in the local scratch directory first (the size limit and the
 * byte check run there); `promote` then puts the checked file into the bucket. Loaded only when a process first
 * opens an S3 store (see openStorage), with the SDK.
 */
export async function createS3Storage(settings: S3Settings, uploadDir: string, log: Logger): Promise<FileStorage> {
  if (!settings.bucket) throw new Error('S3_BUCKET is not set: it names the bucket files are kept in');
  sayNodeVersionInTheLog(log);
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: the newer default streams uploads as aws-chunked with a trailing
    // checksum, which many S3-compatible services store as part of the object. Copies are verified by reading back.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return new S3Storage(sdk, client, settings.bucket, uploadDir, log);
}

/** The first Node major the SDK's releases after January 2027 support. */
const SDK_NODE_MAJOR = 22;

/**
 * On older Node the SDK writes a multi-line warning straight to stderr, between the server's JSON log lines. It is
 * said once in the log instead (the lock file pins an SDK release that supports Node 20).
 */
function sayNodeVersionInTheLog(log: Logger): void {
  if (Number(process.versions.node.split('.')[0]) >= SDK_NODE_MAJOR) return;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  log.info(
    { node: process.versions.node },
    `AWS SDK releases after January 2027 need Node ${SDK_NODE_MAJOR}: upgrade Node before upgrading @aws-sdk/client-s3`,
  );
}

class S3Storage extends ReceivingStorage implements FileStorage {
  readonly backend = 's3';
  readonly location: string;

  constructor(
    private readonly sdk: S3Sdk,
    private readonly client: S3Client,
    private readonly bucket: string,
    uploadDir: string,
    private readonly log: Logger,
  ) {
    super(uploadDir);
    this.location = `s3://${bucket}`;
  }

  /** Sends a command; a failure of the store itself becomes a readable 503 (the details go to the log). */
  private async send<T>(what: string, key: string | null, sending: () => Promise<T>): Promise<T> {
    try {
      return await sending();
    } catch (error) {
      this.log.warn({ err: error, bucket: this.bucket, key }, `S3 ${what} failed`);
      // S3's own error name (NoSuchBucket, AccessDenied…) tells an administrator what to fix; it holds no secret.
      const name = (error as { name?: string }).name;
      const reason = name && /^[A-Za-z]{2,40}$/.test(name) && name !== 'Error' ? ` (${name})` : '';
      throw serviceUnavailable(`The file store (${this.location}) could not ${what}${reason}: try again later`);
    }
  }

  /** A single put of the checked local file (S3 stores an object whole or not at all), then the file goes. */
  async promote(tempPath: string, key: string): Promise<void> {
    this.assertIncoming(tempPath);
    assertStorageKey(key);
    const { size } = await stat(tempPath);
    const body = createReadStream(tempPath);
    try {
      await this.send('store a file', key, () =>
        this.client.send(new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: size })),
      );
    } finally {
      body.destroy();
    }
    await rm(tempPath, { force: true });
  }

  async remove(key: string): Promise<void> {
    assertStorageKey(key);
    await this.send('remove a file', key, () => this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async size(key: string): Promise<number | null> {
    assertStorageKey(key);
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      return this.send('read a file', key, () => Promise.reject(error));
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    assertStorageKey(key);
    const out = new PassThrough();
    const abort = new AbortController();
    // The reader went away (a download cancelled): stop fetching.
    out.on('close', () => abort.abort());
    this.client
      .send(
        new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        { abortSignal: abort.signal },
      )
      .then((object) => pipeline(object.Body as Readable, out))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) this.log.warn({ err: error, bucket: this.bucket, key }, 'S3 read failed');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    return out;
  }

  async list(): Promise<Array<{ key: string; modifiedAt: Date }>> {
    const keys: Array<{ key: string; modifiedAt: Date }> = [];
    let token: string | undefined;
    do {
      const page = await this.send('list the files', null, () =>
        this.client.send(new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token })),
      );
      for (const object of page.Contents ?? [])
        if (object.Key) keys.push({ key: object.Key, modifiedAt: object.LastModified ?? new Date(0) });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

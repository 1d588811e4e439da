import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

// The SDK warns once per process that its 2027 releases will need Node 22; the tests run on Node 20 on purpose.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** s3rver's fixed credentials. */
const ACCESS_KEY = 'S3RVER';

export interface TestS3 {
  bucket: string;
  endpoint: string;
  /** The settings that point Pacer at this server (STORAGE=s3 included). */
  env: Record<string, string>;
  /** The bucket's keys, sorted, read with the SDK. */
  keys(): Promise<string[]>;
  get(key: string): Promise<Buffer>;
  put(key: string, bytes: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on a free port of 127.0.0.1, with one empty bucket, storing under a
 * temporary directory of its own. Never a mock of the SDK: the storage talks HTTP to it as to AWS.
 */
export async function startTestS3(bucket = 'pacer-files'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'pacer-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    bucket,
    endpoint,
    env: s3Env(endpoint, bucket),
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    async get(key) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async put(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const s3Env = (endpoint: string, bucket: string): Record<string, string> => ({
  STORAGE: 's3',
  S3_BUCKET: bucket,
  S3_ENDPOINT: endpoint,
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: ACCESS_KEY,
  S3_SECRET_ACCESS_KEY: ACCESS_KEY,
  S3_FORCE_PATH_STYLE: 'true',
});

/**
 * A faulty network in front of a real server: forwards every request, and flips one byte of the bodies `corrupt`
 * picks (an upload's body on its way in, or a download's on its way out), keeping their length.
 */
export async function startCorruptingProxy(
  target: string,
  corrupt: (request: { method: string; url: string; direction: 'request' | 'response' }) => boolean,
): Promise<{ endpoint: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const flipFirstByte = () => {
    let flipped = false;
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (!flipped && chunk.length > 0) {
          flipped = true;
          const copy = Buffer.from(chunk);
          copy[0] = copy[0]! ^ 0xff;
          done(null, copy);
        } else done(null, chunk);
      },
    });
  };
  const server = http.createServer((req, res) => {
    const request = { method: req.method ?? 'GET', url: req.url ?? '/' };
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (corrupt({ ...request, direction: 'response' })) answer.pipe(flipFirstByte()).pipe(res);
        else answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    if (corrupt({ ...request, direction: 'request' })) req.pipe(flipFirstByte()).pipe(forward);
    else req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

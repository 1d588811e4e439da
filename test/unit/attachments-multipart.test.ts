import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@services/errors.js';
import { receiveMultipart } from '@services/files/multipart.js';
import { LocalDirectoryStorage } from '@services/files/storage.js';

const boundary = 'unitboundary';
function multipartRequest(parts: Array<{ name: string; value: string | Buffer; filename?: string }>) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.filename !== undefined ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Object.assign(Readable.from(chunks), { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

describe('receiveMultipart', () => {
  let dir: string;
  let storage: LocalDirectoryStorage;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-multipart-'));
    storage = new LocalDirectoryStorage(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns the fields and the files in the order sent, with sanitised names', async () => {
    const upload = await receiveMultipart(
      multipartRequest([
        { name: 'files', value: 'first', filename: '../a.png' },
        { name: 'entityType', value: 'event' },
        { name: 'files', value: 'second!', filename: 'b.png' },
      ]),
      storage,
    );
    expect(upload.fields).toEqual({ entityType: 'event' });
    expect(upload.files.map((file) => [file.originalName, file.size])).toEqual([
      ['a.png', 5],
      ['b.png', 7],
    ]);
    expect(await storage.listIncoming()).toHaveLength(2);
  });

  it('answers 507 when the disk is full and leaves no temporary file', async () => {
    const full = Object.assign(Object.create(storage) as LocalDirectoryStorage, {
      receive: async (source: Readable) => {
        source.resume();
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      },
    });
    const error = await receiveMultipart(multipartRequest([{ name: 'files', value: 'x', filename: 'a.png' }]), full).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(507);
    expect(await storage.listIncoming()).toEqual([]);
  });

  it('refuses a file under another field name and a body that is not multipart', async () => {
    await expect(receiveMultipart(multipartRequest([{ name: 'avatar', value: 'x', filename: 'a.png' }]), storage)).rejects.toMatchObject({
      status: 400,
    });
    const notMultipart = Object.assign(Readable.from([Buffer.from('{}')]), { headers: { 'content-type': 'application/json' } });
    await expect(receiveMultipart(notMultipart, storage)).rejects.toMatchObject({ status: 400 });
    expect(await storage.listIncoming()).toEqual([]);
  });

  it('fails at once when the client left before the upload was read (its close event already passed)', async () => {
    const request = Object.assign(new Readable({ read() {} }), {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    request.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\npartial`));
    request.destroy();
    await new Promise((resolve) => request.once('close', resolve));
    await expect(receiveMultipart(request, storage)).rejects.toMatchObject({ code: 'upload_aborted' });
  });
});

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Config, StorageBackend } from '@config/env.js';

/**
 * Where uploaded bytes live: a local directory (the default) or an S3 bucket several processes share. Keys are
 * names we generate (never the user's), so a key cannot climb out of the store. Uploads arrive on this machine's
 * disk first, in a private scratch directory, whatever the backend: the size limit holds while they stream in and
 * their type is decided by their bytes before anything is stored (docs/decisions/0021-file-storage.md).
 */
export interface FileStorage {
  readonly backend: StorageBackend;
  /** Where the bytes are, for messages: the directory, or s3://bucket. */
  readonly location: string;
  /**
   * Streams incoming bytes to a private temporary file; the caller promotes or discards it. Takes `source` over,
   * its 'error' included, before awaiting anything: an upload's part can fail in the tick it is handed over.
   */
  receive(source: Readable): Promise<{ tempPath: string; size: number }>;
  /** Stores a received temporary file under `key` (atomically: whole or not at all); the temporary file is gone after. */
  promote(tempPath: string, key: string): Promise<void>;
  discard(tempPath: string): Promise<void>;
  /** Temporary files still being received or left by a crash, for the files check. */
  listIncoming(): Promise<Array<{ tempPath: string; modifiedAt: Date }>>;
  /** Stores `size` bytes read from `source` under `key`, replacing what is there (a migration's copy). */
  write(key: string, source: Readable, size: number): Promise<void>;
  /** Removing a key that is not there is no error. */
  remove(key: string): Promise<void>;
  /** The stored size, or null when the key is not there. */
  size(key: string): Promise<number | null>;
  /**
   * The stored bytes, or the inclusive byte range [start, end] of them. Returned at once; a failure (the key gone)
   * arrives as the stream's 'error', so whoever pipes it hears it.
   */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Every stored key with its last-modified time (temporary files are not keys). */
  list(): Promise<Array<{ key: string; modifiedAt: Date }>>;
  /** Lets go of connections (a no-op on local disk). */
  close(): Promise<void>;
}

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;
const INCOMING_DIR = '.incoming';

export function newStorageKey(extension: string): string {
  return `${randomUUID()}.${extension}`;
}

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Refuses anything that is not one of our generated names (before it reaches a path or an object key). */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`Refused storage key: ${JSON.stringify(key)}`);
}

/** The scratch directory of uploads being received, `<UPLOAD_DIR>/.incoming`, on every backend. */
export abstract class ReceivingStorage {
  protected readonly base: string;
  private readonly incoming: string;

  constructor(uploadDir: string) {
    this.base = path.resolve(uploadDir);
    this.incoming = path.join(this.base, INCOMING_DIR);
  }

  async receive(source: Readable): Promise<{ tempPath: string; size: number }> {
    const tempPath = path.join(this.incoming, `${randomUUID()}.part`);
    let size = 0;
    let writing: Promise<void> | undefined;
    try {
      // pipeline() listens to the source from this very tick: awaiting anything first (the directory) would leave its
      // 'error' unheard (a body cut short fails the part at once), and that ends the process.
      await pipeline(
        source,
        (chunks: AsyncIterable<Buffer>) => (writing = this.writeIncoming(tempPath, chunks, (bytes) => (size += bytes))),
      );
    } catch (error) {
      // pipeline() can settle on the source's error while the writer is still opening the file: wait for it, or
      // the file would appear after its removal.
      await writing?.catch(() => undefined);
      await rm(tempPath, { force: true });
      throw error;
    }
    return { tempPath, size };
  }

  /**
   * Writes through a file handle of its own rather than a write stream: pipeline() may settle before a destroyed
   * write stream has finished opening its file, which would then be created after the clean-up. This settles
   * only once the file is closed.
   */
  private async writeIncoming(tempPath: string, chunks: AsyncIterable<Buffer>, count: (bytes: number) => void): Promise<void> {
    await mkdir(this.incoming, { recursive: true });
    const file = await open(tempPath, 'wx', 0o600);
    try {
      for await (const chunk of chunks) {
        count(chunk.length);
        await writeAll(file, chunk);
      }
      // Flushed to disk before it can be promoted, so a crash never leaves a promoted file half-written.
      await file.sync();
    } finally {
      await file.close();
    }
  }

  abstract promote(tempPath: string, key: string): Promise<void>;

  /** Receives the bytes like an upload, then promotes them: the store never holds a partial copy. */
  async write(key: string, source: Readable, size: number): Promise<void> {
    const received = await this.receive(source);
    try {
      if (received.size !== size) throw new Error(`expected ${size} bytes, read ${received.size}`);
      await this.promote(received.tempPath, key);
    } finally {
      await rm(received.tempPath, { force: true });
    }
  }

  async discard(tempPath: string): Promise<void> {
    this.assertIncoming(tempPath);
    await rm(tempPath, { force: true });
  }

  async listIncoming(): Promise<Array<{ tempPath: string; modifiedAt: Date }>> {
    try {
      const names = await readdir(this.incoming);
      return Promise.all(
        names.map(async (name) => {
          const tempPath = path.join(this.incoming, name);
          return { tempPath, modifiedAt: (await stat(tempPath)).mtime };
        }),
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  protected assertIncoming(tempPath: string) {
    if (path.dirname(path.resolve(tempPath)) !== this.incoming) throw new Error('Not a received temporary file');
  }
}

export class LocalDirectoryStorage extends ReceivingStorage implements FileStorage {
  readonly backend = 'local';
  readonly location = this.base;

  /** The absolute path of a key; anything that would resolve outside the base directory is refused. */
  localPath(key: string): string {
    const target = path.resolve(this.base, key);
    if (!isStorageKey(key) || path.dirname(target) !== this.base) throw new Error(`Refused storage key: ${JSON.stringify(key)}`);
    return target;
  }

  async promote(tempPath: string, key: string): Promise<void> {
    this.assertIncoming(tempPath);
    await rename(tempPath, this.localPath(key));
  }

  async remove(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async size(key: string): Promise<number | null> {
    try {
      const info = await stat(this.localPath(key));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.localPath(key), range);
  }

  async list(): Promise<Array<{ key: string; modifiedAt: Date }>> {
    let names: string[];
    try {
      names = await readdir(this.base);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const keys: Array<{ key: string; modifiedAt: Date }> = [];
    for (const name of names) {
      if (name === INCOMING_DIR) continue;
      const info = await stat(path.join(this.base, name));
      if (info.isFile()) keys.push({ key: name, modifiedAt: info.mtime });
    }
    return keys;
  }

  async close(): Promise<void> {}
}

/** A write may take only part of what it is given. */
async function writeAll(file: FileHandle, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length;) offset += (await file.write(chunk, offset)).bytesWritten;
}

const opened = new WeakMap<Config, Map<StorageBackend, Promise<FileStorage>>>();

/**
 * The store of a backend (the configured one unless named), made once per configuration: an S3 client keeps its
 * connections. The AWS SDK loads only here, when a process first touches an S3 store, so a server on local disk
 * never pays its start-up cost.
 */
export function openStorage(config: Config, log: Logger, backend: StorageBackend = config.storage.backend): Promise<FileStorage> {
  let stores = opened.get(config);
  if (!stores) opened.set(config, (stores = new Map()));
  let store = stores.get(backend);
  if (!store) {
    store =
      backend === 'local'
        ? Promise.resolve(new LocalDirectoryStorage(config.uploadDir))
        : import('./s3-storage.js').then(({ createS3Storage }) => createS3Storage(config.storage.s3, config.uploadDir, log));
    // A store that could not be made is not kept: the next use tries again.
    store.catch(() => stores.delete(backend));
    stores.set(backend, store);
  }
  return store;
}

/** Closes the stores a configuration opened (the CLI and tests, when they are done). */
export async function closeStorage(config: Config): Promise<void> {
  const stores = opened.get(config);
  opened.delete(config);
  for (const store of stores?.values() ?? []) await store.then((opened) => opened.close()).catch(() => undefined);
}

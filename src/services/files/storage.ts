import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded bytes live. Keys are names we generate (never the user's), so a key cannot climb out of the
 * store. The local directory is the default; an object-store implementation can replace it when several
 * processes must share files (see docs/decisions/0021-file-storage.md).
 */
export interface FileStorage {
  /**
   * Streams incoming bytes to a private temporary file; the caller promotes or discards it. Takes `source` over,
   * its 'error' included, before awaiting anything: an upload's part can fail in the tick it is handed over.
   */
  receive(source: Readable): Promise<{ tempPath: string; size: number }>;
  /** Moves a received temporary file into the store under `key`, atomically. */
  promote(tempPath: string, key: string): Promise<void>;
  discard(tempPath: string): Promise<void>;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number | null>;
  /** The stored bytes, or the inclusive byte range [start, end] of them. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Every stored key with its last-modified time (temporary files are not keys). */
  list(): Promise<Array<{ key: string; modifiedAt: Date }>>;
  /** The local path of a key, for type detection. */
  localPath(key: string): string;
}

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;
const INCOMING_DIR = '.incoming';

export function newStorageKey(extension: string): string {
  return `${randomUUID()}.${extension}`;
}

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export class LocalDirectoryStorage implements FileStorage {
  private readonly base: string;
  private readonly incoming: string;

  constructor(baseDir: string) {
    this.base = path.resolve(baseDir);
    this.incoming = path.join(this.base, INCOMING_DIR);
  }

  /** The absolute path of a key; anything that would resolve outside the base directory is refused. */
  localPath(key: string): string {
    const target = path.resolve(this.base, key);
    if (!isStorageKey(key) || path.dirname(target) !== this.base) throw new Error(`Refused storage key: ${JSON.stringify(key)}`);
    return target;
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

  async promote(tempPath: string, key: string): Promise<void> {
    this.assertIncoming(tempPath);
    await rename(tempPath, this.localPath(key));
  }

  async discard(tempPath: string): Promise<void> {
    this.assertIncoming(tempPath);
    await rm(tempPath, { force: true });
  }

  async remove(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
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

  /** Temporary files still being received or left by a crash, for the files check. */
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

  private assertIncoming(tempPath: string) {
    if (path.dirname(path.resolve(tempPath)) !== this.incoming) throw new Error('Not a received temporary file');
  }
}

/** A write may take only part of what it is given. */
async function writeAll(file: FileHandle, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length;) offset += (await file.write(chunk, offset)).bytesWritten;
}

export function storageFor(uploadDir: string): LocalDirectoryStorage {
  return new LocalDirectoryStorage(uploadDir);
}

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDirectoryStorage } from '@services/files/storage.js';

describe('LocalDirectoryStorage.receive', () => {
  let dir: string;
  const uncaught: unknown[] = [];
  const recordUncaught = (error: unknown) => void uncaught.push(error);
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-storage-'));
    process.on('uncaughtExceptionMonitor', recordUncaught);
  });
  afterEach(() => {
    process.off('uncaughtExceptionMonitor', recordUncaught);
    rmSync(dir, { recursive: true, force: true });
  });

  const leftovers = (base: string) => {
    const incoming = path.join(base, '.incoming');
    return existsSync(incoming) ? readdirSync(incoming) : [];
  };

  it('writes the bytes to a private temporary file and counts them', async () => {
    const storage = new LocalDirectoryStorage(dir);
    const source = new PassThrough();
    const receiving = storage.receive(source);
    source.end(Buffer.from('twelve bytes'));
    const { tempPath, size } = await receiving;
    expect(size).toBe(12);
    expect(leftovers(dir)).toEqual([path.basename(tempPath)]);
  });

  it('rejects and leaves no file when the source fails, whenever it fails (the tick it is handed over included)', async () => {
    // How long after the hand-over the source fails: at once, or while the directory or the file is being made.
    const failAfter = [
      () => undefined,
      () => new Promise((resolve) => setImmediate(resolve)),
      () => new Promise((resolve) => setTimeout(resolve, 1)),
    ];
    const failures: unknown[] = [];
    const left: string[] = [];
    for (let round = 0; round < 90; round++) {
      // A fresh store each time, so the directory is made during the receive too.
      const base = path.join(dir, String(round));
      const source = new PassThrough();
      const receiving = new LocalDirectoryStorage(base).receive(source);
      source.write(Buffer.alloc(100));
      await failAfter[round % failAfter.length]!();
      source.destroy(new Error('Unexpected end of form'));
      failures.push(
        await receiving.then(
          () => 'stored',
          (error: Error) => error.message,
        ),
      );
      left.push(...leftovers(base));
    }
    expect(new Set(failures)).toEqual(new Set(['Unexpected end of form']));
    expect(left).toEqual([]);
    expect(uncaught).toEqual([]);
  });
});

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStoredFiles } from '@services/attachments/owned.js';
import { LocalDirectoryStorage, newStorageKey } from '@services/files/storage.js';
import { normaliseTags } from '@shared/schemas/contacts.js';
import { sanitiseOriginalName } from '@shared/schemas/files.js';

describe('sanitiseOriginalName', () => {
  it('drops directories, control characters and leading dots, and caps the length keeping the extension', () => {
    expect(sanitiseOriginalName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseOriginalName('..\\..\\boot.ini')).toBe('boot.ini');
    expect(sanitiseOriginalName('a\u0000b\u001f.png')).toBe('ab.png');
    expect(sanitiseOriginalName('.htaccess')).toBe('htaccess');
    expect(sanitiseOriginalName('../')).toBe('file');
    const long = sanitiseOriginalName(`${'é'.repeat(300)}.jpeg`);
    expect([...long]).toHaveLength(255);
    expect(long.endsWith('.jpeg')).toBe(true);
  });
});

describe('normaliseTags', () => {
  it('splits on commas, trims, drops empties and duplicates', () => {
    expect(normaliseTags(' a, b,,a , c ')).toEqual(['a', 'b', 'c']);
    expect(normaliseTags(['x,y', ' y', ''])).toEqual(['x', 'y']);
    expect(normaliseTags(null)).toEqual([]);
  });
});

describe('LocalDirectoryStorage', () => {
  let dir: string;
  let storage: LocalDirectoryStorage;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-storage-'));
    storage = new LocalDirectoryStorage(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('receives to a temporary file and promotes it atomically under a generated key', async () => {
    const { tempPath, size } = await storage.receive(Readable.from([Buffer.from('hello')]));
    expect(size).toBe(5);
    const key = newStorageKey('png');
    await storage.promote(tempPath, key);
    expect(await storage.size(key)).toBe(5);
    expect((await storage.list()).map((entry) => entry.key)).toEqual([key]);
    expect(await storage.listIncoming()).toEqual([]);
  });

  it('refuses keys that are not generated names or would leave the base directory', () => {
    for (const key of ['../x.png', '..\\x.png', '/etc/passwd', 'a/b.png', 'x.png', `${newStorageKey('png')}/../../x`]) {
      expect(() => storage.localPath(key), key).toThrow(/Refused storage key/);
    }
  });

  it('removeStoredFiles removes ours, ignores missing files and never touches paths outside the base', async () => {
    const key = newStorageKey('jpg');
    writeFileSync(path.join(dir, key), 'x');
    const outside = mkdtempSync(path.join(tmpdir(), 'pacer-outside-'));
    writeFileSync(path.join(outside, 'keep.txt'), 'x');
    await removeStoredFiles(storage, [key, newStorageKey('png'), `../${path.basename(outside)}/keep.txt`]);
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(outside)).toEqual(['keep.txt']);
    rmSync(outside, { recursive: true, force: true });
  });

  it('removes the temporary file when the incoming stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from('part'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.receive(failing)).rejects.toThrow('client went away');
    expect(await storage.listIncoming()).toEqual([]);
  });
});

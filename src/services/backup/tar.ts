/**
 * The few parts of the tar format (POSIX ustar) a backup archive needs: regular files with names under 100
 * characters, written and read as streams, so neither side ever holds a part in memory. Written here rather than
 * taken from a package: it is about a hundred lines, and the maintained packages either pull in old stream
 * polyfills or bring far more than regular files (docs/decisions/0093-backup-archive-format.md).
 */

const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK);

/** A part of the archive being written: its name, its exact size, and its bytes (which must add up to the size). */
export interface TarSource {
  name: string;
  size: number;
  body: AsyncIterable<Buffer> | Iterable<Buffer>;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date): Buffer {
  const bytes = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 99) throw new Error(`Archive part name too long: ${name}`);
  if (size > 0o77777777777) throw new Error(`Archive part too large: ${name}`);
  bytes.write(name, 0, 100, 'utf8');
  bytes.write(octal(0o644, 8), 100, 'ascii');
  bytes.write(octal(0, 8), 108, 'ascii');
  bytes.write(octal(0, 8), 116, 'ascii');
  bytes.write(octal(size, 12), 124, 'ascii');
  bytes.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  bytes.write('        ', 148, 'ascii');
  bytes.write('0', 156, 'ascii');
  bytes.write('ustar\0', 257, 'ascii');
  bytes.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of bytes) sum += byte;
  bytes.write(octal(sum, 7) + ' ', 148, 'ascii');
  return bytes;
}

/** The archive's bytes, part after part; a part whose body does not match its size fails the whole archive. */
export async function* tarStream(parts: AsyncIterable<TarSource>, mtime: Date): AsyncGenerator<Buffer> {
  for await (const part of parts) {
    yield header(part.name, part.size, mtime);
    let written = 0;
    for await (const chunk of part.body) {
      written += chunk.length;
      if (written > part.size) break;
      yield chunk;
    }
    if (written !== part.size) throw new Error(`${part.name}: expected ${part.size} bytes, read ${written}`);
    const padding = (BLOCK - (part.size % BLOCK)) % BLOCK;
    if (padding) yield ZEROS.subarray(0, padding);
  }
  yield ZEROS;
  yield ZEROS;
}

/** The archive ended, or could not be read, in the middle of `part` (or before its first part when null). */
export class DamagedArchiveError extends Error {
  constructor(
    readonly part: string | null,
    reason: string,
  ) {
    super(part ? `${part}: ${reason}` : reason);
  }
}

/** A part being read: its body must be read to the end (or left) before the next part is asked for. */
export interface TarEntry {
  name: string;
  size: number;
  body: AsyncIterable<Buffer>;
}

function readOctal(bytes: Buffer, start: number, width: number): number {
  const text = bytes
    .toString('ascii', start, start + width)
    .replace(/\0.*$/s, '')
    .trim();
  return text ? parseInt(text, 8) : 0;
}

/** Reads exactly the bytes asked for from a stream of chunks. */
class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** The next chunk of at most `max` bytes, or null at the end of the input. */
  async next(max: number): Promise<Buffer | null> {
    if (this.buffered.length === 0) {
      const step = await this.iterator.next();
      if (step.done) return null;
      this.buffered = step.value;
    }
    const chunk = this.buffered.subarray(0, max);
    this.buffered = this.buffered.subarray(chunk.length);
    return chunk;
  }

  /** Exactly `size` bytes, or null when the input ends first. */
  async exactly(size: number): Promise<Buffer | null> {
    const chunks: Buffer[] = [];
    let have = 0;
    while (have < size) {
      const chunk = await this.next(size - have);
      if (!chunk) return null;
      chunks.push(chunk);
      have += chunk.length;
    }
    return Buffer.concat(chunks);
  }
}

/** The parts of an archive in order. A cut-off or damaged archive throws DamagedArchiveError naming the part. */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source);
  let current: string | null = null;
  const damaged = (error: unknown): never => {
    if (error instanceof DamagedArchiveError) throw error;
    throw new DamagedArchiveError(current, `the archive is damaged here (${(error as Error).message})`);
  };
  for (;;) {
    let block: Buffer | null;
    try {
      block = await reader.exactly(BLOCK);
    } catch (error) {
      return damaged(error);
    }
    if (!block) throw new DamagedArchiveError(current, 'the archive ends early (cut off after this part)');
    if (block.every((byte) => byte === 0)) return;
    const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    if (sum !== readOctal(block, 148, 8)) throw new DamagedArchiveError(current, 'the archive is damaged after this part (a bad header)');
    const size = readOctal(block, 124, 12);
    current = name;
    let left = size;
    async function* body(): AsyncGenerator<Buffer> {
      while (left > 0) {
        let chunk: Buffer | null;
        try {
          chunk = await reader.next(left);
        } catch (error) {
          return damaged(error);
        }
        if (!chunk) throw new DamagedArchiveError(name, 'the archive ends in the middle of this part (cut off)');
        left -= chunk.length;
        yield chunk;
      }
    }
    yield { name, size, body: body() };
    // Whatever the reader left of the body, then the padding.
    for await (const _chunk of body());
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    try {
      if (padding && !(await reader.exactly(padding)))
        throw new DamagedArchiveError(name, 'the archive ends in the middle of this part (cut off)');
    } catch (error) {
      damaged(error);
    }
  }
}

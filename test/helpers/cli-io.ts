import { PassThrough } from 'node:stream';
import type { CliIO } from '@cli/runtime.js';

/** The streams a `pacer` command writes to, captured, with the environment it reads. */
export function fakeIO(env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const io: CliIO = { stdout, stderr, stdin: new PassThrough(), env };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

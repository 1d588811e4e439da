import { PassThrough } from 'node:stream';
import { runCli } from '@cli/program.js';
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

/** A `pacer` command's streams, captured, with the settings every in-process run needs (fast bcrypt, a secret). */
export function captureIO(env: Record<string, string | undefined>): CliIO & { out(): string; err(): string } {
  const captured = fakeIO({ NODE_ENV: 'test', BCRYPT_COST: '4', SESSION_SECRET: 's'.repeat(40), ...env });
  return { ...captured.io, out: captured.stdout, err: captured.stderr };
}

/** Runs `pacer ...argv` in this process with `env`: its exit code and what it printed. */
export async function runPacer(env: Record<string, string | undefined>, argv: string[]) {
  const io = captureIO(env);
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

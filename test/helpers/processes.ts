import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitUntil } from './wait.js';

/**
 * The production build, made into a folder of its own under node_modules/.cache (so the built server still finds
 * the packages it leaves outside its bundle), with package.json beside dist/ as in a checkout (`pacer --version`
 * reads it). Processes started with this folder as their working directory serve its public/ and read no .env.
 */
export async function buildProduct(name: string): Promise<{ root: string; remove(): void }> {
  const root = path.resolve('node_modules/.cache', `${name}-${process.pid}`);
  mkdirSync(root, { recursive: true });
  await promisify(execFile)(
    process.execPath,
    ['esbuild.config.mjs', `--public=${path.join(root, 'public')}`, `--dist=${path.join(root, 'dist')}`],
    { maxBuffer: 1 << 20 },
  );
  copyFileSync('package.json', path.join(root, 'package.json'));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface ProductProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** Its pino lines, parsed. */
  logLines(): Array<Record<string, unknown>>;
  /** SIGTERM, then waits for it to exit; answers the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `node <script> ...args` of a build made by buildProduct, in its folder, with `env` on top of ours. */
export function startProductProcess(root: string, args: string[], env: Record<string, string>): ProductProcess {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    logLines: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: async () => {
      if (child.exitCode === null && !child.signalCode) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The built web server (`node dist/server.js`, PORT=0): resolves once it listens, with its URL. */
export async function startWebProcess(root: string, env: Record<string, string>): Promise<ProductProcess & { url: string }> {
  const server = startProductProcess(root, ['dist/server.js'], { HOST: '127.0.0.1', PORT: '0', ...env });
  const portOf = () => Number(/listening on http:\/\/localhost:(\d+)/.exec(server.output())?.[1] ?? 0);
  await waitUntil(() => portOf() > 0 || server.child.exitCode !== null, 'the web process to listen', 60_000);
  if (!portOf()) throw new Error(`the web process exited: ${server.output()}`);
  return { ...server, url: `http://127.0.0.1:${portOf()}` };
}

/** What one `pacer` run printed, and how it ended. */
export interface PacerRun {
  code: number | null;
  out: string;
  err: string;
}

/** The real `pacer` (bin/pacer.js of a production build), run as an operator runs it. */
export interface BuiltPacer {
  /** The build's folder (buildProduct). */
  root: string;
  bin: string;
  /** An empty folder of its own the commands run from, so a test sees whether they write where they are run. */
  cwd: string;
  /** `pacer ...args` without a terminal (stdin a pipe given `input`), with only `env` on top of the test defaults. */
  run(env: Record<string, string>, args: string[], input?: string): Promise<PacerRun>;
  remove(): void;
}

/** Builds the product with its bin/ (see buildProduct) and answers how to run its `pacer`. */
export async function buildPacer(name: string): Promise<BuiltPacer> {
  const product = await buildProduct(name);
  cpSync('bin', path.join(product.root, 'bin'), { recursive: true });
  const bin = path.join(product.root, 'bin', 'pacer.js');
  const cwd = mkdtempSync(path.join(tmpdir(), `${name}-cwd-`));
  const run = (env: Record<string, string>, args: string[], input = '') =>
    new Promise<PacerRun>((resolve, reject) => {
      // No .env and none of ours: PATH and the fast bcrypt cost of tests, then the test's own settings.
      const base: Record<string, string> = { PATH: process.env.PATH ?? '', NODE_ENV: 'test', BCRYPT_COST: '4' };
      const child = execFile(process.execPath, [bin, ...args], { cwd, env: { ...base, ...env } }, (error, out, err) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: child.exitCode, out, err });
      });
      child.stdin!.end(input);
    });
  return {
    root: product.root,
    bin,
    cwd,
    run,
    remove() {
      product.remove();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** `pacer worker` from the sources as its own process, as a deployment runs it, with `env` on top of ours. */
export function startWorkerProcess(env: Record<string, string>): ChildProcess & { output(): string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/index.ts', 'worker'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

/** Its exit code once it has exited (at once when it already has). */
export const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve(child.exitCode) : child.once('exit', resolve),
  );

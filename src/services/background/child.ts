import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { settingsEnvOf, type Config } from '@config/env.js';

/**
 * Lowers this process's CPU priority to `nice` (0: leaves it). Only ever lowers: a process already nicer than
 * asked stays as it is (raising it back needs privileges). Answers the niceness it runs at.
 */
export function lowerOwnPriority(nice: number, log?: Pick<Logger, 'warn'>): number {
  const now = os.getPriority(0);
  if (nice <= 0 || now >= nice) return now;
  try {
    os.setPriority(0, nice);
  } catch (error) {
    log?.warn({ err: error, nice }, 'could not lower the process priority');
  }
  return os.getPriority(0);
}

/**
 * How to start `pacer` from this process: the built CLI beside the bundle this code runs in (dist/), or the sources
 * through tsx when this code runs from them (tests, `tsx` scripts).
 */
function pacerCommand(): { args: string[]; cwd: string } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const root = path.resolve(path.dirname(here), '..', '..', '..');
    return { args: ['--import', 'tsx', path.join(root, 'cli', 'index.ts')], cwd: root };
  }
  const cli = path.join(path.dirname(here), 'cli.js');
  if (!existsSync(cli)) throw new Error(`The built CLI is missing beside ${here}`);
  return { args: [cli], cwd: process.cwd() };
}

/** The variables a child needs from the system, whatever settings it is given. */
const SYSTEM_VARIABLES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'PACER_HOME'];

export interface BackgroundChildOptions {
  config: Config;
  /** `pacer` arguments, e.g. ['db', 'backup', '--progress-lines']. */
  args: string[];
  /** Settings on top of those `config` was read from (what a caller changed in its copy of the config). */
  env?: Record<string, string>;
  /** The niceness to run it at (0: as this process). */
  nice: number;
  /** Each line the child writes on stdout that is a JSON object. */
  onMessage(message: Record<string, unknown>): void;
  /** Aborting kills the child (SIGTERM, then SIGKILL after `killAfterMs`). */
  signal?: AbortSignal;
  killAfterMs?: number;
}

export interface BackgroundChildExit {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The child's stderr, its last 4 KB (what it said when it failed). */
  stderr: string;
}

/**
 * Runs background work as a `pacer` command in a child process at a lower CPU priority, so it competes with the
 * web server (or the worker's other jobs) only for the CPU they leave idle. The child reads the same settings as
 * this process's `config`, speaks JSON lines on stdout, and is killed when `signal` aborts.
 */
export function runInBackgroundChild(options: BackgroundChildOptions): Promise<BackgroundChildExit> {
  const { args: pacer, cwd } = pacerCommand();
  const env: NodeJS.ProcessEnv = {};
  for (const name of SYSTEM_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name];
  Object.assign(env, settingsEnvOf(options.config), { DATABASE_URL: options.config.databaseUrl }, options.env);
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason as Error);
      return;
    }
    const child = spawn(process.execPath, [...pacer, ...options.args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', reject);
      return;
    }
    // At once, before it has done any work worth mentioning; the child may lower itself further, never raise.
    if (options.nice > 0) {
      try {
        os.setPriority(pid, Math.max(options.nice, os.getPriority(0)));
      } catch {
        // It exited already, or the system refuses: it runs as this process does.
      }
    }
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        const message = JSON.parse(line) as unknown;
        if (message && typeof message === 'object' && !Array.isArray(message)) options.onMessage(message as Record<string, unknown>);
      } catch {
        // Not one of ours: ignored.
      }
    });
    let hardKill: NodeJS.Timeout | undefined;
    const kill = () => {
      child.kill('SIGTERM');
      hardKill = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 5000);
      hardKill.unref();
    };
    options.signal?.addEventListener('abort', kill, { once: true });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(hardKill);
      options.signal?.removeEventListener('abort', kill);
      resolve({ pid, code, signal, stderr });
    });
  });
}

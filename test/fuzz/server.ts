import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from './wire.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SESSION_SECRET = 'fuzz-secret-fuzz-secret-fuzz-secret-0123456789';

export interface ServerSettings {
  databaseUrl: string;
  uploadDir: string;
  /** How long start-up may take on a loaded machine before giving up. */
  startTimeoutMs: number;
}

/** What the server logged for a request that failed on its side (pino's `err`), keyed by X-Request-Id. */
export interface LoggedError {
  message: string;
  type: string;
  frame: string;
}

const OUTPUT_LINES_KEPT = 60;

/**
 * The real server (src/server/main.ts under tsx) in a child process, so a crash is something the fuzzer observes
 * and reports rather than something that takes the test runner down with it.
 */
export class ServerUnderTest {
  port = 0;
  /** Request-log lines seen ("request completed" / "request aborted by the client"): one per request Express saw. */
  requestLogCount = 0;
  readonly errorsByRequestId = new Map<string, LoggedError>();
  /** Ids of the last requests the request log reported done (their error line, if any, was logged before). */
  readonly finishedRequestIds = new Set<string>();
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Set once the process's output streams have ended too (after `exit`), so its last words are all read. */
  private outputClosed = false;
  private child: ChildProcess | undefined;
  private readonly output: string[] = [];
  /** stderr on its own: a crash's stack trace must not be pushed out by request logs. */
  private readonly errorOutput: string[] = [];
  private readonly events = new EventEmitter();
  private stopping = false;

  constructor(private readonly settings: ServerSettings) {}

  get alive(): boolean {
    return this.child !== undefined && this.exit === undefined;
  }

  /** The last lines the process wrote, for a crash report: a few log lines, then stderr (where a crash's stack goes). */
  recentOutput(): string[] {
    return [...this.output.slice(-6), ...this.errorOutput.slice(-30).map((line) => `[stderr] ${line}`)];
  }

  async start(): Promise<void> {
    this.exit = undefined;
    this.stopping = false;
    this.port = 0;
    this.output.length = 0;
    this.errorOutput.length = 0;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: this.settings.databaseUrl,
      SESSION_SECRET,
      BCRYPT_COST: '4',
      UPLOAD_DIR: this.settings.uploadDir,
      LOG_LEVEL: 'info',
      // Empty values override a developer's .env: the integrations stay unconfigured, so nothing leaves the machine.
      WORDPRESS_URL: '',
      WORDPRESS_USER: '',
      WORDPRESS_APP_PASSWORD: '',
      PUBLIC_SITE_URL: '',
      MAILCHIMP_API_KEY: '',
      MAILCHIMP_BASE_URL: '',
      TRUST_PROXY: '',
      COOKIE_SECURE: 'false',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.outputClosed = false;
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      this.events.emit('change');
    });
    child.on('close', () => {
      this.outputClosed = true;
      this.events.emit('change');
    });
    readLines(child.stdout!, (line) => this.onStdout(line));
    readLines(child.stderr!, (line) => {
      this.errorOutput.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
      if (this.errorOutput.length > OUTPUT_LINES_KEPT) this.errorOutput.splice(0, this.errorOutput.length - OUTPUT_LINES_KEPT);
    });

    const deadline = Date.now() + this.settings.startTimeoutMs;
    const listening = await this.waitFor(() => this.port > 0 || this.exit !== undefined, this.settings.startTimeoutMs);
    if (!listening || this.port === 0) {
      await this.stop();
      // (TypeScript cannot see that the exit handler may have run during the wait.)
      const exit = this.exit as ServerUnderTest['exit'];
      const why = exit
        ? `exited during start-up (exit code ${exit.code ?? '-'}, signal ${exit.signal ?? '-'})`
        : `did not start within ${this.settings.startTimeoutMs} ms`;
      throw new Error(`The server ${why}:\n${this.recentOutput().join('\n')}`);
    }
    // Listening is logged from the listen callback; wait until it really answers.
    while (Date.now() < deadline) {
      const outcome = await send(
        {
          method: 'GET',
          target: '/healthz',
          headers: [
            ['Host', '127.0.0.1'],
            ['Connection', 'close'],
          ],
          body: Buffer.alloc(0),
          framing: { kind: 'none' },
        },
        { port: this.port, timeoutMs: 5000 },
      );
      if (outcome.kind === 'response' && outcome.response.status === 200) return;
      if (!this.alive) break;
      await this.waitFor(() => !this.alive, 100);
    }
    await this.stop();
    throw new Error(`The server never answered /healthz:\n${this.recentOutput().join('\n')}`);
  }

  /** Resolves true once `condition` holds (re-checked on every line the server writes), false after `timeoutMs`. */
  waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        cleanup();
        resolve(true);
      };
      const timer = setTimeout(() => {
        cleanup();
        resolve(condition());
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.events.off('change', check);
      };
      this.events.on('change', check);
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.exit !== undefined || this.stopping) return;
    this.stopping = true;
    child.kill('SIGTERM');
    if (!(await this.waitFor(() => this.exit !== undefined, 15_000))) {
      child.kill('SIGKILL');
      await this.waitFor(() => this.exit !== undefined, 5_000);
    }
  }

  /** The error a dead process printed last (`TypeError: …` and its first frame in our code), to tell crashes apart. */
  async crashCause(): Promise<string | undefined> {
    await this.waitFor(() => this.outputClosed, 3000);
    const lines = this.errorOutput;
    for (let i = lines.length - 1; i >= 0; i--) {
      if (!/^(?:[A-Z]\w*)?Error\b/.test(lines[i]!)) continue;
      const frame = lines.slice(i + 1).find((line) => /^\s+at .*\/src\//.test(line)) ?? lines[i + 1] ?? '';
      return `${lines[i]} (${frame
        .trim()
        .replace(/^at /, '')
        .replace(REPO_ROOT + '/', '')})`;
    }
    return undefined;
  }

  /** Kills the process at once (used when the runner itself is exiting). */
  kill(): void {
    if (this.child && this.exit === undefined) this.child.kill('SIGKILL');
  }

  private remember(line: string) {
    this.output.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
    if (this.output.length > OUTPUT_LINES_KEPT) this.output.splice(0, this.output.length - OUTPUT_LINES_KEPT);
  }

  private onStdout(line: string) {
    let entry: Record<string, unknown> | undefined;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      entry = undefined;
    }
    // Request-log lines are noise in a crash report; everything else is kept.
    const isRequestLine = entry?.msg === 'request completed' || entry?.msg === 'request aborted by the client';
    if (!isRequestLine) this.remember(line);
    if (!entry) return;
    if (typeof entry.port === 'number' && this.port === 0) this.port = entry.port;
    const requestId = (entry.req as { id?: unknown } | undefined)?.id;
    if (isRequestLine) {
      this.requestLogCount += 1;
      if (typeof requestId === 'string') {
        this.finishedRequestIds.add(requestId);
        if (this.finishedRequestIds.size > 500) this.finishedRequestIds.delete(this.finishedRequestIds.values().next().value!);
      }
    }
    const err = entry.err as { message?: unknown; type?: unknown; stack?: unknown } | undefined;
    if (typeof requestId === 'string' && err && typeof entry.level === 'number' && entry.level >= 50) {
      const frame =
        typeof err.stack === 'string'
          ? (err.stack.split('\n').find((l) => /^\s+at /.test(l) && !l.includes('node_modules')) ?? '').trim()
          : '';
      this.errorsByRequestId.set(requestId, { message: String(err.message ?? entry.msg), type: String(err.type ?? ''), frame });
      if (this.errorsByRequestId.size > 500) this.errorsByRequestId.delete(this.errorsByRequestId.keys().next().value!);
    }
    this.events.emit('change');
  }
}

function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
  stream.on('end', () => {
    if (pending) onLine(pending);
  });
}

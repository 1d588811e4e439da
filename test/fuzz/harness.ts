import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPES, recordApiPath, type RecordType } from '@shared/record-types.js';

import { fuzzCases } from './generators.js';
import { apiRouteModels, isMalformed, ownerOfParam, type AnyCase, type RouteModel } from './model.js';
import { buildRequest, describeCase, type Session } from './render.js';
import { fileBytes } from './multipart.js';
import { judge, type Problem } from './oracle.js';
import { declaredRoutes } from './routes.js';
import { REPO_ROOT, ServerUnderTest } from './server.js';
import { ID_OWNERS, idFrom, type IdOwner, type IdPools } from './values.js';
import { header, send, type WireOutcome, type WireRequest } from './wire.js';

/** Fuzzed requests come from 127.0.0.1; the harness's own sign-ins from here, so the login throttle the fuzz trips never locks it out. */
const CONTROL_ADDRESS = '127.0.0.2';
const ADMIN = { email: 'fuzz-admin@example.org', password: 'fuzz admin password', firstName: 'Fuzz', lastName: 'Admin' };
/** Pools are re-read from the API this often (and after a restart), so ids keep pointing at rows that exist. */
const REFRESH_EVERY = 250;
/** Rows seeded per pool (lists give records more), and the size below which a pool is refilled. */
const POOL_TARGET: Record<IdOwner, number> = {
  event: 3,
  professional: 3,
  runclub: 3,
  brand: 3,
  media: 3,
  influencer: 3,
  contact: 8,
  payment: 8,
  file: 6,
};
const POOL_LOW = 2;

export interface FuzzSettings {
  runs: number;
  seed: number;
  /** Replays a fast-check path (with the same seed). */
  path?: string;
  /** shrink: stop at the first failure and shrink it (CI). collect: run every case and group the failures. */
  mode: 'shrink' | 'collect';
  /** How long one answer may take on a loaded machine. */
  requestTimeoutMs?: number;
  /** Server restarts allowed after crashes (shrinking a crash restarts it for each attempt). */
  maxRestarts?: number;
  /** In collect mode, afterwards shrink one example of each distinct failure (replaying its run by seed and path). */
  minimise?: boolean;
  log?: (line: string) => void;
  progressEvery?: number;
  /** Logs every case whose route key contains this text, with the answer's status and message (tuning aid). */
  trace?: string;
}

interface FailureGroup {
  key: string;
  count: number;
  /** Index of the first run that showed it (its fast-check path with the same seed). */
  firstRun: number;
  problem: Problem;
  /** The smallest request that showed it. */
  example: string;
  exampleSize: number;
  serverLog?: string;
  minimised?: string;
}

interface CrashRecord {
  /** -1: found dead before `nextCase` was sent. */
  run: number;
  nextCase?: string;
  exit: string;
  lastCase: string;
  previousCase?: string;
  output: string[];
}

export interface FuzzReport {
  database: string;
  seed: number;
  runsRequested: number;
  runsExecuted: number;
  durationMs: number;
  statusCounts: Record<string, number>;
  routeCounts: Record<string, { sent: number; accepted: number }>;
  slowest: FuzzSession['slowest'];
  serverErrors: number;
  nodeParserRejections: number;
  poolRefreshes: number;
  crashes: CrashRecord[];
  restarts: number;
  serverAliveAtEnd: boolean;
  failures: FailureGroup[];
  /** Shrink mode: fast-check's verdict. */
  counterexample?: { path: string; description: string; error: string; shrinks: number };
}

interface CaseResult {
  problems: Problem[];
  description: string;
  size: number;
  serverLog?: string;
}

/** Groups failures: route, what went wrong, status, and the message with its numbers blanked out. */
function failureKey(c: AnyCase, problem: Problem, serverLog: string | undefined): string {
  const route = isMalformed(c)
    ? `${c.route} (raw ${c.malformed})`
    : c.method === c.route.split(' ')[0]
      ? c.route
      : `${c.method} via ${c.route}`;
  const normalise = (text: string) =>
    text
      .replace(/\d+/g, 'N')
      .replace(/"[^"]{20,}"/g, '"…"')
      .slice(0, 160);
  return `${route} → ${problem.kind}${problem.status ? ` ${problem.status}` : ''}: ${normalise(problem.message)}${serverLog ? ` [server: ${normalise(serverLog)}]` : ''}`;
}

class FuzzSession {
  readonly apiModels: Map<string, RouteModel> = apiRouteModels();
  readonly routes = declaredRoutes();
  pools: IdPools = Object.fromEntries(ID_OWNERS.map((owner) => [owner, [] as number[]])) as unknown as IdPools;
  session: Session = { cookie: '' };
  statusCounts: Record<string, number> = {};
  /** Per route: cases sent, and how many the handler accepted (2xx/3xx), to show where the fuzz does not get through. */
  routeCounts: Record<string, { sent: number; accepted: number }> = {};
  /** The slowest cases (time to judge them, waits included): where a long run's time goes. */
  slowest: Array<{ ms: number; description: string; outcome: string }> = [];
  serverErrors = 0;
  nodeParserRejections = 0;
  runsExecuted = 0;
  poolRefreshes = 0;
  crashes: CrashRecord[] = [];
  restarts = 0;
  /** Off while minimising collected failures, so the report's numbers describe the run itself. */
  counting = true;
  /** Restarts allowed beyond maxRestarts (minimising a crash restarts the server for every attempt). */
  extraRestarts = 0;
  private casesSinceRefresh = 0;
  private poolsDirty = false;
  private poolsLow = false;
  private sessionLost = false;
  private previousCase: string | undefined;
  /** Whether the current death of the server is already in `crashes`. */
  private deathRecorded = false;

  constructor(
    readonly server: ServerUnderTest,
    readonly internalPaths: string[],
    readonly settings: Required<Pick<FuzzSettings, 'requestTimeoutMs' | 'maxRestarts'>> & FuzzSettings,
  ) {}

  private get port() {
    return this.server.port;
  }

  /** A request the harness itself needs (sign-in, seeding): well-formed, from the control address. */
  async control(
    method: string,
    target: string,
    body?: { json?: unknown; multipart?: { boundary: string; bytes: Buffer } },
    cookie = this.session.cookie,
  ) {
    const headers: Array<[string, string]> = [
      ['Host', `127.0.0.1:${this.port}`],
      ['Origin', `http://127.0.0.1:${this.port}`],
      ['Connection', 'close'],
    ];
    if (cookie) headers.push(['Cookie', cookie]);
    let bytes: Buffer = Buffer.alloc(0);
    if (body?.json !== undefined) {
      headers.push(['Content-Type', 'application/json']);
      bytes = Buffer.from(JSON.stringify(body.json));
    } else if (body?.multipart) {
      headers.push(['Content-Type', `multipart/form-data; boundary=${body.multipart.boundary}`]);
      bytes = body.multipart.bytes;
    }
    const outcome = await send(
      { method, target, headers, body: bytes, framing: { kind: 'length' } },
      { port: this.port, timeoutMs: 30_000, localAddress: CONTROL_ADDRESS },
    );
    if (outcome.kind !== 'response') throw new Error(`${method} ${target}: ${outcome.kind}`);
    const text = outcome.response.body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: outcome.response.status, json, text, response: outcome.response };
  }

  private adoptCookies(setCookies: string[] | undefined): boolean {
    const pairs = (setCookies ?? []).map((line) => line.split(';')[0]!.trim()).filter((pair) => /^pacer(\.sig)?=./.test(pair));
    if (pairs.length === 0) return false;
    const current = new Map(
      this.session.cookie
        .split('; ')
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const),
    );
    for (const pair of pairs) current.set(pair.slice(0, pair.indexOf('=')), pair);
    this.session = { cookie: [...current.values()].join('; ') };
    return true;
  }

  /** First-run set-up through the real endpoint, which signs the new admin in. */
  async setUp(): Promise<void> {
    const res = await this.control('POST', '/api/setup', { json: ADMIN }, '');
    if (res.status !== 201 || !this.adoptCookies(res.response.headers.get('set-cookie')))
      throw new Error(`first-run set-up failed: ${res.status} ${res.text}`);
    await this.assertSignedIn();
  }

  async signInAgain(): Promise<void> {
    this.session = { cookie: '' };
    const res = await this.control('POST', '/api/login', { json: { email: ADMIN.email, password: ADMIN.password } }, '');
    if (res.status !== 200 || !this.adoptCookies(res.response.headers.get('set-cookie')))
      throw new Error(`sign-in failed: ${res.status} ${res.text}`);
    await this.assertSignedIn();
    this.sessionLost = false;
  }

  private async assertSignedIn() {
    const me = await this.control('GET', '/api/me');
    if (me.status !== 200) throw new Error(`the new session is not signed in: ${me.status} ${me.text}`);
  }

  private async create(target: string, json: unknown): Promise<number> {
    const res = await this.control('POST', target, { json });
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (res.status !== 201 || typeof id !== 'number') throw new Error(`seeding ${target} failed: ${res.status} ${res.text}`);
    return id;
  }

  private async uploadFile(entityType: IdOwner, entityId: number, magic: 'png' | 'gif'): Promise<number> {
    const boundary = 'seedBoundary';
    const bytes = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="entityType"\r\n\r\n${entityType}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="entityId"\r\n\r\n${entityId}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="seed.${magic}"\r\nContent-Type: image/${magic}\r\n\r\n`,
      ),
      fileBytes({ magic, size: 256 }),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await this.control('POST', '/api/upload', { multipart: { boundary, bytes } });
    const id = (res.json as { files?: Array<{ id?: unknown }> } | undefined)?.files?.[0]?.id;
    if (res.status !== 201 || typeof id !== 'number') throw new Error(`seeding an upload failed: ${res.status} ${res.text}`);
    return id;
  }

  private recordBody(kind: RecordType, n: number): Record<string, unknown> {
    const name = `Seed ${kind} ${n} ${Date.now().toString(36)}`;
    switch (kind) {
      case 'event':
        return {
          eventName: name,
          eventStartDate: '2026-05-01',
          eventEndDate: '2026-05-02',
          runType: ['Trail'],
          featuredRace: n % 2 === 0,
          locationState: 'NSW',
          locationLat: '-33.8688',
          locationLng: '151.2093',
        };
      case 'professional':
        return { businessName: name, professionType: 'coach', specializations: ['Marathon'], subscriptionExpiryDate: '2027-01-01' };
      case 'runclub':
        return { clubName: name, clubType: ['trail', 'road'], foundedYear: 2001, membershipCount: 40 };
      case 'brand':
        return { brandName: name, industryCategory: 'Shoes', locationState: 'VIC' };
      case 'media':
        return { mediaName: name, industry: 'Podcast' };
      case 'influencer':
        return { firstName: name, lastName: 'Seed', instagramHandle: '@seed', email: 'seed@example.org' };
    }
  }

  /** Tops every pool up to its target, creating rows through the API like a user would. */
  async seed(): Promise<void> {
    for (const kind of RECORD_TYPES) {
      while (this.pools[kind].length < POOL_TARGET[kind])
        this.pools[kind].push(await this.create(recordApiPath(kind), this.recordBody(kind, this.pools[kind].length)));
    }
    for (let i = 0; this.pools.contact.length < POOL_TARGET.contact; i++) {
      const entityType = CONTACT_OWNER_TYPES[i % CONTACT_OWNER_TYPES.length]!;
      this.pools.contact.push(
        await this.create('/api/contacts', {
          firstName: 'Seed',
          lastName: `Contact ${i}`,
          email: `seed${i}@example.org`,
          entityType,
          entityId: this.pools[entityType][0],
          isPrimary: i % 2 === 0,
          mailchimpTags: 'vip, runner',
        }),
      );
    }
    for (let i = 0; this.pools.payment.length < POOL_TARGET.payment; i++) {
      const entityType = RECORD_TYPES[i % RECORD_TYPES.length]!;
      const payment = (entityId: number | undefined) => ({
        entityType,
        entityId,
        description: `Seed payment ${i}`,
        amount: '120.50',
        paymentDate: '2026-03-01',
      });
      const res = await this.control('POST', '/api/payments', { json: payment(this.pools[entityType][0]) });
      const id = (res.json as { id?: unknown } | undefined)?.id;
      if (res.status === 201 && typeof id === 'number') {
        this.pools.payment.push(id);
        continue;
      }
      // Fuzzed payments can fill an owner up to the total's limit (99,999,999.99): seed on a fresh owner then.
      if (res.status !== 400 || !res.text.includes('cannot add up to more than'))
        throw new Error(`seeding /api/payments failed: ${res.status} ${res.text}`);
      const owner = await this.create(recordApiPath(entityType), this.recordBody(entityType, this.pools[entityType].length));
      this.pools[entityType].unshift(owner);
      this.pools.payment.push(await this.create('/api/payments', payment(owner)));
    }
    for (let i = 0; this.pools.file.length < POOL_TARGET.file; i++) {
      const entityType = RECORD_TYPES[i % RECORD_TYPES.length]!;
      this.pools.file.push(await this.uploadFile(entityType, this.pools[entityType][0]!, i % 2 ? 'gif' : 'png'));
    }
  }

  /** Re-reads which rows exist (fuzzed deletes remove seeded rows; fuzzed creates add odd ones), then tops up. */
  async refreshPools(): Promise<void> {
    const idsOf = (json: unknown) =>
      ((json as { items?: Array<{ id?: unknown }> } | undefined)?.items ?? [])
        .map((item) => item.id)
        .filter((id): id is number => typeof id === 'number');
    for (const kind of RECORD_TYPES) {
      const res = await this.control('GET', `${recordApiPath(kind)}?limit=20`);
      this.pools[kind] = res.status === 200 ? idsOf(res.json) : [];
    }
    const payments = await this.control('GET', '/api/payments?limit=20');
    this.pools.payment = payments.status === 200 ? idsOf(payments.json) : [];
    const contacts: number[] = [];
    const files: number[] = [];
    for (const type of RECORD_TYPES) {
      for (const id of this.pools[type].slice(0, 2)) {
        if ((CONTACT_OWNER_TYPES as readonly string[]).includes(type)) {
          const res = await this.control('GET', `/api/contacts/${type}/${id}`);
          if (res.status === 200) contacts.push(...(Array.isArray(res.json) ? idsOf({ items: res.json }) : idsOf(res.json)));
        }
        const res = await this.control('GET', `/api/files/${type}/${id}`);
        if (res.status === 200) files.push(...(Array.isArray(res.json) ? idsOf({ items: res.json }) : idsOf(res.json)));
      }
    }
    this.pools.contact = contacts;
    this.pools.file = files;
    await this.seed();
    this.poolsDirty = false;
    this.casesSinceRefresh = 0;
    this.poolRefreshes += 1;
  }

  private async ensureServer(c: AnyCase): Promise<'ok' | 'dead'> {
    if (this.server.alive) return 'ok';
    // It died after the previous case had its answer: that case is the likely cause.
    if (!this.deathRecorded) this.recordCrash(-1, this.previousCase ?? '(none)', undefined, describeCase(c, this.apiModels));
    if (this.restarts >= this.settings.maxRestarts + this.extraRestarts) return 'dead';
    this.restarts += 1;
    this.settings.log?.(`restarting the server (restart ${this.restarts} of at most ${this.settings.maxRestarts})`);
    await this.server.start();
    this.deathRecorded = false;
    // The database (and so the signed-in user) survived; the cookie stays valid with the same secret.
    this.poolsDirty = true;
    return 'ok';
  }

  private recordCrash(run: number, lastCase: string, previousCase?: string, nextCase?: string) {
    const exit = this.server.exit;
    this.deathRecorded = true;
    this.crashes.push({
      run,
      nextCase,
      exit: exit ? `exit code ${exit.code ?? '-'}${exit.signal ? `, signal ${exit.signal}` : ''}` : 'not answering',
      lastCase,
      previousCase,
      output: this.server.recentOutput(),
    });
  }

  private probeHealth(): Promise<WireOutcome> {
    const probe: WireRequest = {
      method: 'GET',
      target: '/healthz',
      headers: [
        ['Host', `127.0.0.1:${this.port}`],
        ['Connection', 'close'],
      ],
      body: Buffer.alloc(0),
      framing: { kind: 'none' },
    };
    return send(probe, { port: this.port, timeoutMs: this.settings.requestTimeoutMs, localAddress: CONTROL_ADDRESS });
  }

  /** Sends one case and judges the answer; also keeps the session and the id pools in shape. */
  async runCase(c: AnyCase, run: number): Promise<CaseResult | 'server-dead'> {
    if ((await this.ensureServer(c)) === 'dead') return 'server-dead';
    if (this.sessionLost) await this.signInAgain();
    // A short pool is refilled after a re-read: new contacts, payments and files need owners that still exist.
    if (this.poolsDirty || this.poolsLow || this.casesSinceRefresh >= REFRESH_EVERY) await this.refreshPools();
    this.poolsLow = false;
    this.casesSinceRefresh += 1;

    const started = performance.now();
    const request = buildRequest(c, { port: this.port, pools: this.pools, session: this.session }, this.apiModels);
    const description = describeCase(c, this.apiModels);
    const logsBefore = this.server.requestLogCount;
    const outcome = await send(request, { port: this.port, timeoutMs: this.settings.requestTimeoutMs });
    const incomplete = request.cut !== undefined || request.rawHead !== undefined;
    // The JSON error contract holds for what Express routes to /api (case-insensitively), however the route was meant.
    const api = /^(?:https?:\/\/[^/]*)?\/api(?:[/?#]|$)/i.test(isMalformed(c) ? c.path : request.target);
    const problems = judge(request, outcome, { api, method: request.method, incomplete, internalPaths: this.internalPaths });
    let serverLog: string | undefined;

    const counts = this.counting ? (this.routeCounts[c.route] ??= { sent: 0, accepted: 0 }) : { sent: 0, accepted: 0 };
    counts.sent += 1;
    const tally: Record<string, number> = this.counting ? this.statusCounts : {};
    if (this.settings.trace && c.route.includes(this.settings.trace)) {
      const answer =
        outcome.kind === 'response' ? `${outcome.response.status} ${outcome.response.body.toString('utf8').slice(0, 200)}` : outcome.kind;
      this.settings.log?.(`trace run ${run}:\n${description}\n  → ${answer}`);
    }
    if (outcome.kind === 'response') {
      const { response } = outcome;
      const status = String(response.status);
      if (response.status < 400) counts.accepted += 1;
      tally[status] = (tally[status] ?? 0) + 1;
      if (header(response, 'x-request-id') === undefined && this.counting) this.nodeParserRejections += 1;
      if (response.status >= 500) {
        if (this.counting) this.serverErrors += 1;
        const requestId = header(response, 'x-request-id');
        if (requestId) {
          // The error line and the answer travel on different pipes: wait for the request's log line, written after it.
          await this.server.waitFor(
            () => this.server.errorsByRequestId.has(requestId) || this.server.finishedRequestIds.has(requestId),
            2000,
          );
          const logged = this.server.errorsByRequestId.get(requestId);
          this.server.errorsByRequestId.delete(requestId);
          if (logged) serverLog = `${logged.type ? `${logged.type}: ` : ''}${logged.message}${logged.frame ? ` (${logged.frame})` : ''}`;
        }
      }
      if (!isMalformed(c) && c.headers.auth === 'session') this.afterAnswer(c, response.status, response.headers.get('set-cookie'));
    } else {
      tally[outcome.kind] = (tally[outcome.kind] ?? 0) + 1;
    }

    // No whole answer (cut on purpose, refused, or the socket dropped): make sure the server lived through it.
    // Express logs one line when it is done with a request; waiting for it lets an abort's after-effects happen first.
    if (outcome.kind !== 'response' || incomplete) {
      // Only a request whose head the app accepted gets a log line. Node refuses some heads before Express sees them
      // (417 for an Expect, 431 for huge headers); its bare 400 also follows a body cut short, which Express did see.
      const refusedByNode =
        outcome.kind === 'response' && header(outcome.response, 'x-request-id') === undefined && outcome.response.status !== 400;
      const reachedApp = request.rawHead === undefined && request.framing.kind !== 'declared' && !refusedByNode;
      if (reachedApp) await this.server.waitFor(() => this.server.requestLogCount > logsBefore || !this.server.alive, 1000);
      const health = this.server.alive ? await this.probeHealth() : undefined;
      if (!health || health.kind !== 'response' || health.response.status !== 200) {
        await this.server.waitFor(() => !this.server.alive, 2000);
        if (!this.server.alive) problems.push({ kind: 'crash', message: 'the server process died' });
        else problems.push({ kind: 'unhealthy', message: `/healthz did not answer 200 afterwards (${health?.kind ?? 'no probe'})` });
      }
    } else if (!this.server.alive) {
      problems.push({ kind: 'crash', message: 'the server process died' });
    }
    if (problems.some((p) => p.kind === 'crash')) {
      // The crash explains a missing answer: report it once, as the crash.
      problems.splice(0, problems.length, ...problems.filter((p) => p.kind !== 'no-answer'));
      this.recordCrash(run, description, this.previousCase);
      // What the process printed as it died tells one crash from another.
      serverLog = await this.server.crashCause();
    }

    this.previousCase = description;
    const ms = Math.round(performance.now() - started);
    if (this.counting && (this.slowest.length < 5 || ms > this.slowest[this.slowest.length - 1]!.ms)) {
      this.slowest = [
        ...this.slowest,
        { ms, description, outcome: outcome.kind === 'response' ? String(outcome.response.status) : outcome.kind },
      ]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5);
    }
    return { problems, description, size: request.body.length + request.target.length, serverLog };
  }

  /** Keeps the session cookie current (re-signing in after a fuzzed logout) and the pools free of deleted rows. */
  private afterAnswer(c: Exclude<AnyCase, { malformed: string }>, status: number, setCookies: string[] | undefined) {
    const cleared = (setCookies ?? []).some(
      (line) => /^pacer=;/.test(line) || (/^pacer=/.test(line) && /expires=Thu, 01 Jan 1970/i.test(line)),
    );
    if (cleared || (c.route === 'POST /api/logout' && status === 204)) this.sessionLost = true;
    else this.adoptCookies(setCookies);
    if (c.method === 'DELETE' && status >= 200 && status < 300) this.forgetDeleted(c);
  }

  /**
   * A pooled row the case deleted leaves its pool (refilled when short). Rows deleted with it (a
   * record's contacts, payments and files) stay listed until the next periodic refresh: a few 404s, not a re-read
   * of every pool after every delete.
   */
  private forgetDeleted(c: Exclude<AnyCase, { malformed: string }>) {
    const pattern = c.route.slice(c.route.indexOf(' ') + 1);
    for (const { name, piece } of c.params) {
      const owner = ownerOfParam(pattern, name);
      if (!owner || !('existing' in piece)) continue;
      const id = idFrom(this.pools, owner, piece.existing);
      this.pools[owner] = this.pools[owner].filter((pooled) => pooled !== id);
      if (this.pools[owner].length < POOL_LOW) this.poolsLow = true;
    }
  }
}

/** Starts a fresh database and server, signs in, seeds, runs the property, and tears everything down. */
export async function runApiFuzz(input: FuzzSettings): Promise<FuzzReport> {
  const settings = { requestTimeoutMs: 15_000, maxRestarts: 10, ...input };
  const log = settings.log ?? (() => undefined);
  const started = Date.now();
  const database: TestDatabase = await createTestDatabase({ migrate: false });
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-fuzz-uploads-'));
  const server = new ServerUnderTest({ databaseUrl: database.url, uploadDir, startTimeoutMs: 120_000 });
  const killOnExit = () => server.kill();
  process.once('exit', killOnExit);
  const sqliteFile = database.url.startsWith('sqlite:') ? database.url.slice('sqlite:'.length) : undefined;
  const internalPaths = [REPO_ROOT, uploadDir, tmpdir() + path.sep, ...(sqliteFile ? [sqliteFile] : [])];
  const fuzz = new FuzzSession(server, internalPaths, settings);
  const failures = new Map<string, FailureGroup>();
  let counterexample: FuzzReport['counterexample'];
  let aliveAtEnd: boolean;

  try {
    await server.start();
    await fuzz.setUp();
    await fuzz.seed();
    log(`server on port ${server.port} (${database.dialect}); ${fuzz.routes.length} routes; seed ${settings.seed}; ${settings.runs} runs`);

    const cases = fuzzCases(fuzz.routes, fuzz.apiModels);
    const record = (c: AnyCase, run: number, result: CaseResult) => {
      for (const problem of result.problems) {
        const key = failureKey(c, problem, result.serverLog);
        const group = failures.get(key);
        if (!group) {
          failures.set(key, {
            key,
            count: 1,
            firstRun: run,
            problem,
            example: result.description,
            exampleSize: result.size,
            serverLog: result.serverLog,
          });
          log(`new failure #${failures.size} (run ${run}): ${key}`);
        } else {
          group.count += 1;
          if (result.size < group.exampleSize) Object.assign(group, { example: result.description, exampleSize: result.size, problem });
        }
      }
    };

    if (settings.mode === 'collect') {
      let run = 0;
      const property = fc.asyncProperty(cases, async (c) => {
        const index = run++;
        const result = await fuzz.runCase(c, index);
        fuzz.runsExecuted += 1;
        if (result === 'server-dead') throw new Error('the server is dead and may not be restarted again');
        record(c, index, result);
        if (settings.progressEvery && fuzz.runsExecuted % settings.progressEvery === 0) {
          log(
            `runs ${fuzz.runsExecuted}/${settings.runs}: 5xx ${fuzz.serverErrors}, distinct failures ${failures.size}, restarts ${fuzz.restarts}`,
          );
        }
        return true;
      });
      const details = await fc.check(property, { seed: settings.seed, numRuns: settings.runs, path: settings.path, endOnFailure: true });
      if (details.failed)
        counterexample = {
          path: details.counterexamplePath ?? '',
          description: details.counterexample ? describeCase(details.counterexample[0], fuzz.apiModels) : '',
          error: String(details.errorInstance),
          shrinks: 0,
        };
      if (settings.minimise) {
        fuzz.counting = false;
        for (const group of failures.values()) {
          log(`minimising: ${group.key}`);
          fuzz.extraRestarts += 30;
          const shrunk = await shrinkOne(fuzz, cases, settings.seed, String(group.firstRun), (c, problems, serverLog) =>
            problems.some((p) => failureKey(c, p, serverLog) === group.key),
          );
          if (shrunk) group.minimised = shrunk.description;
        }
      }
    } else {
      const shrunk = await shrinkOne(
        fuzz,
        cases,
        settings.seed,
        settings.path,
        () => true,
        settings.runs,
        (c, run, result) => record(c, run, result),
        settings.progressEvery,
        log,
      );
      if (shrunk) counterexample = shrunk;
    }
  } finally {
    process.off('exit', killOnExit);
    aliveAtEnd = server.alive;
    await server.stop();
    await database.destroy().catch(() => undefined);
    rmSync(uploadDir, { recursive: true, force: true });
  }
  return {
    database: database.dialect === 'sqlite' ? 'SQLite' : `MariaDB (${process.env.TEST_DATABASE_URL ?? ''})`,
    seed: settings.seed,
    runsRequested: settings.runs,
    runsExecuted: fuzz.runsExecuted,
    durationMs: Date.now() - started,
    statusCounts: fuzz.statusCounts,
    routeCounts: fuzz.routeCounts,
    slowest: fuzz.slowest,
    serverErrors: fuzz.serverErrors,
    nodeParserRejections: fuzz.nodeParserRejections,
    poolRefreshes: fuzz.poolRefreshes,
    crashes: fuzz.crashes,
    restarts: fuzz.restarts,
    serverAliveAtEnd: aliveAtEnd,
    failures: [...failures.values()],
    counterexample,
  };
}

/** Shrinking runs requests against a live server, so it gets a budget; past it the property passes and fast-check stops. */
const SHRINK_BUDGET = { attempts: 300, ms: 120_000 };

/**
 * Runs the property in fast-check's fail-and-shrink mode: `matches` says which problems count as the failure.
 * Used for CI (any problem, from run 0) and to minimise one collected failure (replayed from its path).
 */
async function shrinkOne(
  fuzz: FuzzSession,
  cases: fc.Arbitrary<AnyCase>,
  seed: number,
  replayPath: string | undefined,
  matches: (c: AnyCase, problems: Problem[], serverLog: string | undefined) => boolean,
  runs = 1,
  onResult?: (c: AnyCase, run: number, result: CaseResult) => void,
  progressEvery?: number,
  log?: (line: string) => void,
): Promise<FuzzReport['counterexample']> {
  let run = 0;
  let failedAt: number | undefined;
  let attemptsAfterFailure = 0;
  let lastError = '';
  const property = fc.asyncProperty(cases, async (c) => {
    if (failedAt !== undefined) {
      attemptsAfterFailure += 1;
      if (attemptsAfterFailure > SHRINK_BUDGET.attempts || Date.now() - failedAt > SHRINK_BUDGET.ms) return true;
    }
    const index = run++;
    const result = await fuzz.runCase(c, index);
    if (failedAt === undefined && fuzz.counting) fuzz.runsExecuted += 1;
    // A dead server that may not be restarted proves nothing about this candidate: stop shrinking.
    if (result === 'server-dead') {
      if (failedAt !== undefined) return true;
      throw new Error('the server died and could not be restarted');
    }
    if (failedAt === undefined) onResult?.(c, index, result);
    if (progressEvery && failedAt === undefined && fuzz.runsExecuted % progressEvery === 0)
      log?.(`runs ${fuzz.runsExecuted}: 5xx ${fuzz.serverErrors}, restarts ${fuzz.restarts}`);
    if (result.problems.length && matches(c, result.problems, result.serverLog)) {
      // A crash can surface one request late (an abort's clean-up fails after the health probe answered). Only a
      // request that kills a fresh server on its own may stand as the counterexample; the death stays in the report.
      if (result.problems.some((p) => p.kind === 'crash')) {
        const again = await fuzz.runCase(c, index);
        if (again !== 'server-dead' && !again.problems.some((p) => p.kind === 'crash')) {
          log?.(`run ${index}: the server died, but not again when this request was replayed alone`);
          return true;
        }
      }
      failedAt ??= Date.now();
      lastError = [
        ...result.problems.map(
          (p) => `${p.kind}${p.status ? ` ${p.status}` : ''}: ${p.message}${p.detail ? `\n      ${p.detail.slice(0, 600)}` : ''}`,
        ),
        ...(result.serverLog ? [`server log: ${result.serverLog}`] : []),
      ].join('\n    ');
      throw new Error(lastError);
    }
    return true;
  });
  const details = await fc.check(property, { seed, numRuns: runs, path: replayPath });
  if (!details.failed || !details.counterexample) return undefined;
  return {
    path: details.counterexamplePath ?? '',
    description: describeCase(details.counterexample[0], fuzz.apiModels),
    error: lastError || String(details.errorInstance),
    shrinks: details.numShrinks,
  };
}

export function formatReport(report: FuzzReport): string {
  const lines = [
    `API fuzz on ${report.database}: seed ${report.seed}, ${report.runsExecuted} of ${report.runsRequested} runs in ${(report.durationMs / 1000).toFixed(1)} s`,
    `  5xx answers: ${report.serverErrors}; server alive at the end: ${report.serverAliveAtEnd ? 'yes' : 'NO'}; crashes: ${report.crashes.length}; restarts: ${report.restarts}; id pools re-read: ${report.poolRefreshes}×`,
    `  statuses: ${Object.entries(report.statusCounts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')} (refused by Node's HTTP parser before the app: ${report.nodeParserRejections})`,
  ];
  const neverAccepted = Object.entries(report.routeCounts).filter(([, counts]) => counts.sent >= 10 && counts.accepted === 0);
  if (neverAccepted.length)
    lines.push(`  routes never answered 2xx/3xx: ${neverAccepted.map(([route, counts]) => `${route} (${counts.sent} cases)`).join(', ')}`);
  if (report.counterexample) {
    lines.push(
      '',
      `FAILED — replay with: npm run fuzz -- --seed ${report.seed} --path ${report.counterexample.path} --shrink`,
      `  (or FUZZ_SEED=${report.seed} FUZZ_PATH=${report.counterexample.path} for the vitest file)`,
      `  after ${report.counterexample.shrinks} shrinks, the smallest failing request:`,
      indent(report.counterexample.description, 4),
      `  problem:\n    ${report.counterexample.error}`,
    );
  }
  // Shrinking a crash crashes the server again and again: the first few deaths tell the story.
  for (const crash of report.crashes.slice(0, 3)) {
    if (crash.run >= 0)
      lines.push(
        '',
        `SERVER DIED during run ${crash.run} (${crash.exit}), seed ${report.seed}; the request in flight:`,
        indent(crash.lastCase, 4),
      );
    else
      lines.push(
        '',
        `SERVER FOUND DEAD (${crash.exit}), seed ${report.seed}, after this request had its answer:`,
        indent(crash.lastCase, 4),
      );
    if (crash.previousCase) lines.push('  the request before it:', indent(crash.previousCase, 4));
    lines.push('  last output of the server:', indent(crash.output.join('\n'), 4));
  }
  if (report.crashes.length > 3) lines.push(`  (${report.crashes.length - 3} more deaths, most while shrinking)`);
  if (report.failures.length) {
    // One cause often fails many routes (every page, say): list causes first, then each route's own group.
    const causes = new Map<string, FailureGroup[]>();
    for (const group of report.failures) {
      const cause = `${group.problem.kind}${group.problem.status ? ` ${group.problem.status}` : ''}: ${(group.serverLog ?? group.problem.message).replace(/\d+/g, 'N').slice(0, 200)}`;
      causes.set(cause, [...(causes.get(cause) ?? []), group]);
    }
    lines.push('', `${causes.size} distinct cause(s):`);
    for (const [cause, groups] of causes) {
      const smallest = groups.reduce((a, b) => (b.exampleSize < a.exampleSize ? b : a));
      const routes = groups.map((g) => g.key.split(' → ')[0]);
      lines.push(
        `- ${cause}`,
        `    on ${routes.length} route(s): ${routes.slice(0, 6).join(', ')}${routes.length > 6 ? ', …' : ''}; seen ${groups.reduce((n, g) => n + g.count, 0)}×`,
        '    e.g.',
        indent(smallest.example, 6),
      );
    }
    lines.push('', `${report.failures.length} distinct failure(s) by route, status and message:`);
    for (const [index, group] of report.failures.entries()) {
      lines.push(
        `${index + 1}. ${group.key}`,
        `   seen ${group.count}×, first at run ${group.firstRun} (--seed ${report.seed} --path ${group.firstRun})`,
      );
      if (group.problem.detail) lines.push(`   detail: ${group.problem.detail.slice(0, 300).replace(/\n/g, '\\n')}`);
      lines.push('   smallest example:', indent(group.example, 5));
      if (group.minimised) lines.push('   shrunk by fast-check:', indent(group.minimised, 5));
    }
  }
  return lines.join('\n');
}

const indent = (text: string, spaces: number) =>
  text
    .split('\n')
    .map((line) => ' '.repeat(spaces) + line)
    .join('\n');

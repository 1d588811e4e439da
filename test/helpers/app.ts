import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import pino from 'pino';
import supertest from 'supertest';
import { loadConfig, type Config } from '@config/env.js';
import { LoginThrottle, type ThrottleLimits, defaultThrottleLimits } from '@services/auth/login-throttle.js';
import type { AppContext, Clock } from '@services/context.js';
import { createUser } from '@services/users/service.js';
import { createApp } from '@server/app.js';
import type { ServerContext } from '@server/types.js';
import type { Role } from '@shared/roles.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import { createTestDatabase, type TestDatabase } from './db.js';

export const TEST_ORIGIN = 'http://127.0.0.1';
export const TEST_PASSWORD = 'correct horse battery';

/** A clock tests can move forward. */
export class FakeClock implements Clock {
  constructor(private current = new Date('2026-11-21T09:00:00.000Z')) {}
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestApp {
  app: Express;
  ctx: ServerContext;
  config: Config;
  database: TestDatabase;
  clock: FakeClock;
  uploadDir: string;
  logLines: string[];
  /** A supertest agent that keeps cookies and sends our Origin on writes. */
  agent(): ReturnType<typeof supertest.agent>;
  /** Creates a user (if needed; staff unless a role is given) and returns an agent signed in as them. */
  signedInAgent(email?: string, role?: Role): Promise<{ agent: ReturnType<typeof supertest.agent>; user: PublicUser }>;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    BCRYPT_COST: '4',
    LOG_LEVEL: 'info',
    ...overrides,
  });
}

/**
 * A service-layer context on a test database, as the CLI makes one: a silent log, the test settings with the
 * database's URL and `env` on top, and `clock` (a FakeClock at its fixed start unless given).
 */
export function testServiceContext(
  database: { db: AppContext['db']; url: string },
  options: { env?: Record<string, string>; clock?: Clock } = {},
): AppContext {
  return {
    db: database.db,
    log: pino({ level: 'silent' }),
    config: testConfig({ DATABASE_URL: database.url, ...options.env }),
    clock: options.clock ?? new FakeClock(),
  };
}

export async function createTestApp(
  options: { env?: Record<string, string>; throttle?: ThrottleLimits; extend?: (ctx: ServerContext) => ServerContext } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-uploads-'));
  const config = testConfig({ UPLOAD_DIR: uploadDir, DATABASE_URL: database.url, ...options.env });
  const clock = new FakeClock();
  const logLines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  const base: ServerContext = {
    db: database.db,
    log,
    config,
    clock,
    throttle: new LoginThrottle(options.throttle ?? defaultThrottleLimits),
    assets: { entry: '/assets/entry.client.js', css: [], preload: [], auth: { entry: '/assets/entry.auth.js', preload: [] } },
  };
  const ctx = options.extend ? options.extend(base) : base;
  const app = createApp(ctx);

  const agent = () => {
    const a = supertest.agent(app);
    // Host and Origin agree, as they do for a browser on our own site.
    a.set('Host', '127.0.0.1').set('Origin', TEST_ORIGIN);
    return a;
  };
  let userCount = 0;
  return {
    app,
    ctx,
    config,
    database,
    clock,
    uploadDir,
    logLines,
    agent,
    async signedInAgent(email?: string, role: Role = 'staff') {
      const address = email ?? `staff${++userCount}@example.org`;
      const existing = await database.db('users').where({ email: address }).first();
      if (!existing) await createUser(ctx, { email: address, password: TEST_PASSWORD, firstName: 'Sam', lastName: 'Staff', role });
      const a = agent();
      const res = await a.post('/api/login').send({ email: address, password: TEST_PASSWORD });
      if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
      return { agent: a, user: res.body.user as PublicUser };
    },
    async close() {
      await database.destroy();
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

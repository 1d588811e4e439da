import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { LoginThrottle } from '@services/auth/login-throttle.js';
import { systemClock, type Clock } from '@services/context.js';
import { createUser } from '@services/users/service.js';
import { createApp } from '@server/app.js';
import { createLogger } from '@context/logger.js';
import type { ServerContext } from '@server/types.js';
import { readAssetManifest } from '@ssr/assets.js';
import { closeJobDispatcher } from '@services/jobs/dispatch.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { testConfig, TEST_PASSWORD } from '../helpers/app.js';

export interface E2EServer {
  baseUrl: string;
  ctx: ServerContext;
  database: TestDatabase;
  uploadDir: string;
  close(): Promise<void>;
}

/**
 * The real app (same createApp as production) on a free port, a fresh migrated database of the configured
 * dialect, and the browser bundle built by global-setup (or the one in `publicDir`). `env` adds settings, e.g.
 * WORDPRESS_URL of a fake; `clock` fixes the server's time (screenshots compared with baselines).
 */
export async function startServer(options: { env?: Record<string, string>; clock?: Clock; publicDir?: string } = {}): Promise<E2EServer> {
  const publicDir = options.publicDir ?? inject('e2ePublicDir');
  const database = await createTestDatabase();
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-e2e-uploads-'));
  const config = testConfig({ DATABASE_URL: database.url, UPLOAD_DIR: uploadDir, LOG_LEVEL: 'warn', ...options.env });
  const ctx: ServerContext = {
    db: database.db,
    log: createLogger({ logLevel: 'warn' }),
    config,
    clock: options.clock ?? systemClock,
    throttle: new LoginThrottle(),
    assets: readAssetManifest(publicDir),
  };
  const app = createApp(ctx, { assetsDir: path.join(publicDir, 'assets') });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    ctx,
    database,
    uploadDir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Jobs the test started finish before their database goes.
      await closeJobDispatcher(ctx);
      await database.destroy();
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, warnings and uncaught page errors seen so far. */
  problems: string[];
  /**
   * Throws when the page logged any error or warning (hydration mismatches included). Chromium logs every
   * non-2xx fetch; a test that provokes one on purpose names its status in `expectedHttpStatuses`. Each call
   * covers what the page reported since the previous call.
   */
  assertClean(options?: { expectedHttpStatuses?: number[] }): void;
  close(): Promise<void>;
}

/** A fresh browser context (own cookies) whose console is watched for errors and warnings. */
export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; locale?: string; javaScriptEnabled?: boolean } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: options.locale ?? 'en-AU',
    timezoneId: 'Australia/Sydney',
  });
  const page = await context.newPage();
  // A wait gives up after 45 s, not 15: on the shared machine under CI's load a list's reload after a delete once took
  // longer than 15 s to show. A working page answers in well under a second; the slack only costs time when broken.
  page.setDefaultTimeout(45_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  // Chromium's console line for a failed request has no URL: record the responses too, to say which.
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`http ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return {
    page,
    context,
    problems,
    assertClean({ expectedHttpStatuses = [] } = {}) {
      const unexpected = problems.filter((problem) => {
        const status = /^(?:console\.error: Failed to load resource: the server responded with a status of|http) (\d+)/.exec(problem)?.[1];
        return !(status && expectedHttpStatuses.includes(Number(status)));
      });
      // Each check covers what happened since the one before, so an expected status is not carried into the next.
      problems.length = 0;
      if (unexpected.length) throw new Error(`The browser reported problems:\n${unexpected.join('\n')}`);
    },
    close: () => context.close(),
  };
}

/** Creates a user straight through the service (fast) and returns its credentials. */
export async function createStaffUser(server: E2EServer, email = 'staff@example.org'): Promise<{ email: string; password: string }> {
  await createUser(server.ctx, { email, password: TEST_PASSWORD, firstName: 'Sam', lastName: 'Staff' });
  return { email, password: TEST_PASSWORD };
}

/** Signs in through the login screen at `path` and waits for the signed-in layout. */
export async function signIn(page: Page, baseUrl: string, credentials: { email: string; password: string }, path = '/'): Promise<void> {
  await page.goto(baseUrl + path);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  // The app's page arrives server-rendered: its buttons show before React has attached their handlers.
  await waitForHydration(page);
}

/** Waits until React has hydrated the page (its first commit is done, so client-side handlers are attached). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
}

/**
 * JSON API calls as the signed-in browser user (cookies of the page's context, our Origin), for test set-up
 * such as creating records that have no add screen.
 */
export async function apiAs<T>(page: Page, baseUrl: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await page.context().request.fetch(baseUrl + url, {
    method,
    headers: { Origin: baseUrl, 'Content-Type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok()) throw new Error(`${method} ${url} → ${response.status()}: ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** What a browser test file's tests share: one server and one Chromium, and a signed-in page when asked for. */
export interface BrowserSuite {
  server: E2EServer;
  browser: Browser;
  /** The staff user's page (only with `signedIn`). */
  watched: WatchedPage;
}

/**
 * Registers a file's set-up and tear-down: a server (with `server`'s options) and a Chromium for all its tests, and
 * with `signedIn` a watched page (made by `open`, default openPage) of a new staff user signed in at `path`, hydrated
 * when `hydrated`. Read the fields inside hooks and tests, once the set-up ran.
 */
export function browserSuite(
  options: {
    /** The server's options, or a function that makes them once earlier hooks ran (fakes started there). */
    server?: Parameters<typeof startServer>[0] | (() => Parameters<typeof startServer>[0]);
    signedIn?: { path: string; open?: (browser: Browser) => Promise<WatchedPage>; hydrated?: boolean };
  } = {},
): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    suite.server = await startServer(typeof options.server === 'function' ? options.server() : options.server);
    suite.browser = await launchBrowser();
    const signedIn = options.signedIn;
    if (!signedIn) return;
    const credentials = await createStaffUser(suite.server);
    suite.watched = await (signedIn.open ?? openPage)(suite.browser);
    await signIn(suite.watched.page, suite.server.baseUrl, credentials, signedIn.path);
    if (signedIn.hydrated) await waitForHydration(suite.watched.page);
  });
  afterAll(async () => {
    await suite.watched?.close();
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

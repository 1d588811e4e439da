import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three tiers: `unit` (services, API through supertest, CLI, the API fuzz) runs against the database named by
 * TEST_DATABASE_URL (SQLite by default, MariaDB in CI's second pass); `components` renders views in happy-dom;
 * `e2e` drives the built app in Debian's Chromium.
 */
const UNIT_DIRS = ['test/unit', 'test/api', 'test/cli', 'test/integrations', 'test/fuzz'];

/**
 * Unit-tier files that swap in their own version of an app module (vi.mock): they cannot share loaded modules, so
 * they are found by their text and run apart, and a new such file needs no list kept by hand.
 */
const MODULE_SWAPPING_FILES = UNIT_DIRS.flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
    .filter((file) => file.endsWith('.test.ts') && /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8'))),
);

/** What both unit-tier projects run with. */
const UNIT_SETTINGS = {
  environment: 'node' as const,
  setupFiles: ['test/setup/node.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/**
 * What both browser-tier projects run with. Their files run beside the other tiers' (each starts its own server and
 * browser page and waits for conditions, never for fixed times), except the timed ones below.
 */
const BROWSER_SETTINGS = {
  environment: 'node' as const,
  globalSetup: ['test/e2e/global-setup.ts'],
  testTimeout: 90_000,
  hookTimeout: 120_000,
  // expect.poll gives up after 1 s by default: a page's effect (focus moved into a dialog) can take longer on a loaded
  // machine, and a poll that is going to pass still returns as soon as it does.
  expect: { poll: { timeout: 15_000 } },
};

/** Browser files that time the page against a budget (the phone profile): they must have the machine to themselves. */
const TIMED_BROWSER_FILES = ['test/e2e/phone-speed.test.ts'];

export default defineConfig({
  // The path aliases of tsconfig.json (@shared/…, @services/…) resolve in tests as they do for tsc, esbuild and tsx.
  resolve: { tsconfigPaths: true },
  test: {
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // test/fuzz: the API fuzz against the real server in a child process (see test/fuzz/harness.ts).
          include: UNIT_DIRS.map((dir) => `${dir}/**/*.test.ts`),
          exclude: [...configDefaults.exclude, ...MODULE_SWAPPING_FILES],
          // The files share a worker's loaded modules instead of importing the app afresh each (that import was
          // ~40 % of the project's time): every file makes its own database, server and clock, so no state crosses.
          isolate: false,
          ...UNIT_SETTINGS,
        },
      },
      // Files that replace app modules with vi.mock get modules of their own.
      ...(MODULE_SWAPPING_FILES.length === 0
        ? []
        : [{ extends: true as const, test: { name: 'unit-isolated', include: MODULE_SWAPPING_FILES, ...UNIT_SETTINGS } }]),
      {
        extends: true,
        test: {
          name: 'components',
          environment: 'happy-dom',
          include: ['test/components/**/*.test.tsx'],
          setupFiles: ['test/setup/dom.ts'],
          // Above the 10 s its waits may take (test/setup/dom.ts): lazily loaded dialogs arrive late on a busy machine.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...TIMED_BROWSER_FILES],
          // As the unit tier: each file starts its own server, database and browser, so they can share loaded modules.
          isolate: false,
          ...BROWSER_SETTINGS,
        },
      },
      // Timed in the browser against a budget: runs last and alone, so no other file's load is in its figures.
      {
        extends: true,
        test: {
          name: 'e2e-timed',
          include: TIMED_BROWSER_FILES,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          ...BROWSER_SETTINGS,
        },
      },
    ],
  },
});

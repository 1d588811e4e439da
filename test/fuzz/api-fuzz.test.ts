import { describe, expect, it } from 'vitest';
import { testDatabaseServer } from '../helpers/db.js';
import { formatReport, runApiFuzz } from './harness.js';
import { apiRouteModels, paramKindOf } from './model.js';
import { declaredApiRoutes, declaredRoutes, paramsOf, routeKey } from './routes.js';
import type { Json } from './values.js';

/**
 * A property-based fuzz of every route against the real server in a child process, on the database CI selects
 * (TEST_DATABASE_URL). FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH override the fixed CI settings, e.g. to replay a failure;
 * `npm run fuzz` runs the same property for long runs.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const PATH = process.env.FUZZ_PATH || undefined;

describe('API fuzz: coverage of the route table', () => {
  it('has a body and query model for every /api route the router declares, and none for routes that are gone', () => {
    const declared = declaredApiRoutes().map(routeKey);
    const models = [...apiRouteModels().keys()];
    expect(
      declared.filter((key) => !models.includes(key)),
      'routes without a generator: add them to apiRouteModels() in test/fuzz/model.ts',
    ).toEqual([]);
    expect(
      models.filter((key) => !declared.includes(key)),
      'generators for routes that no longer exist',
    ).toEqual([]);
  });

  it('knows how to generate every path parameter of every route and page', () => {
    const unknown = declaredRoutes().flatMap((route) =>
      paramsOf(route.path)
        .filter((name) => !paramKindOf(name))
        .map((name) => `${routeKey(route)} :${name}`),
    );
    expect(unknown, 'path parameters without a generator: add them to PARAM_KINDS in test/fuzz/model.ts').toEqual([]);
  });

  it('starts from bodies the real schemas accept, so mutations probe past validation', () => {
    for (const [key, model] of apiRouteModels()) {
      if (model.body.kind !== 'object') continue;
      // Owner ids are filled in from seeded rows at run time; any positive id parses.
      const plain = (value: Json): unknown =>
        's' in value
          ? value.s
          : 'id' in value
            ? 1
            : 'a' in value
              ? value.a.map(plain)
              : 'o' in value
                ? Object.fromEntries(value.o.map(([key, item]) => [key, plain(item)]))
                : null;
      const body = Object.fromEntries(model.body.valid.map(([field, value]) => [field, plain(value)]));
      const parsed = model.body.schema.safeParse(body);
      expect(parsed.success, `${key}: ${parsed.error?.message ?? ''}`).toBe(true);
    }
  });
});

describe(`API fuzz against the real server (${testDatabaseServer === 'sqlite' ? 'SQLite' : 'MariaDB'})`, () => {
  it(
    `stays up, never answers 5xx or leaks internals, and answers /api errors as readable JSON (${RUNS} cases, seed ${SEED})`,
    async () => {
      const report = await runApiFuzz({ runs: RUNS, seed: SEED, path: PATH, mode: 'shrink', maxRestarts: 5, requestTimeoutMs: 20_000 });
      console.log(formatReport(report).split('\n').slice(0, 3).join('\n'));
      if (report.counterexample || report.crashes.length || !report.serverAliveAtEnd) expect.fail(`\n${formatReport(report)}`);
      expect(report.runsExecuted).toBe(PATH ? report.runsExecuted : RUNS);
    },
    20 * 60_000,
  );
});

/**
 * `npm run fuzz -- --runs N --seed S`: the API fuzz outside vitest, for long runs. By default it keeps going after
 * a failure and groups what it found (route + status + message); --shrink stops at the first failure and shrinks
 * it as CI does, --path replays one run, --minimise shrinks one example of each group afterwards.
 * TEST_DATABASE_URL selects MariaDB as for the test suite.
 */
import { parseArgs } from 'node:util';
import { formatReport, runApiFuzz } from './harness.js';

process.env.NODE_ENV = 'test';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    path: { type: 'string' },
    shrink: { type: 'boolean', default: false },
    minimise: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '15000' },
    progress: { type: 'string', default: '500' },
    'max-restarts': { type: 'string' },
    routes: { type: 'boolean', default: false },
    trace: { type: 'string' },
  },
  strict: true,
});

const wholeNumber = (name: string, text: string | undefined, fallback: number): number => {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
  return Number(text);
};

const runs = wholeNumber('runs', values.runs, 2000);
const seed = wholeNumber('seed', values.seed, Date.now() % 2 ** 31);
const started = Date.now();
console.log(`fuzzing the API: ${runs} runs, seed ${seed}${values.path ? `, replaying path ${values.path}` : ''}`);

const report = await runApiFuzz({
  runs,
  seed,
  path: values.path,
  mode: values.shrink || values.path ? 'shrink' : 'collect',
  minimise: values.minimise,
  requestTimeoutMs: wholeNumber('timeout', values.timeout, 15_000),
  progressEvery: wholeNumber('progress', values.progress, 500),
  // Enough to ride out a crash every fifty cases; a server that dies more often than that ends the run.
  maxRestarts: wholeNumber('max-restarts', values['max-restarts'], Math.max(200, Math.ceil(runs / 50))),
  trace: values.trace,
  log: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`),
});
console.log(`\n${formatReport(report)}`);
if (values.routes) {
  console.log('\ncases per route (sent / answered 2xx-3xx):');
  for (const [route, counts] of Object.entries(report.routeCounts).sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${route}: ${counts.sent} / ${counts.accepted}`);
  console.log('\nslowest cases:');
  for (const slow of report.slowest) console.log(`  ${slow.ms} ms → ${slow.outcome}\n${slow.description.replace(/^/gm, '    ')}`);
}
console.log(
  `\nruns: ${report.runsExecuted}; 5xx: ${report.serverErrors}; server alive: ${report.serverAliveAtEnd ? 'yes' : 'no'}; distinct failures: ${report.failures.length}`,
);
process.exit(report.failures.length || report.counterexample || report.crashes.length || !report.serverAliveAtEnd ? 1 : 0);

import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolActivityOf, watchPoolAcquires } from '@db/knex.js';
import type { ImportKind } from '@shared/imports/rules.js';
import { JOB_TYPES, type JobType } from '@shared/schemas/jobs.js';
import type { SyncKind } from '@shared/record-types.js';
import { countUnfinishedJobs } from './jobs/queries.js';

/**
 * The Prometheus metrics of this process, all named here. One registry per process, kept in the services layer so
 * the services count what they do without knowing who serves the numbers (the web server's /metrics, the worker's
 * metrics port). Counting costs a label lookup and an add, so the hot paths only ever count.
 */
const registry = new Registry();

const requestDuration = new Histogram({
  name: 'pacer_http_request_duration_seconds',
  help: 'Time from a request’s arrival to its answer, by route pattern (never the raw URL), method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const poolAcquireWait = new Histogram({
  name: 'pacer_db_pool_acquire_wait_seconds',
  help: 'How long a query waited for a database connection from the pool',
  buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
  registers: [registry],
});

const poolAcquireTimeouts = new Counter({
  name: 'pacer_db_pool_acquire_timeouts_total',
  help: 'Queries that gave up waiting for a database connection (DB_ACQUIRE_TIMEOUT_MS)',
  registers: [registry],
});

const poolPendingAcquires = new Gauge({
  name: 'pacer_db_pool_pending_acquires',
  help: 'Queries waiting for a database connection right now',
  registers: [registry],
});

const poolUsedConnections = new Gauge({
  name: 'pacer_db_pool_used_connections',
  help: 'Database connections in use right now',
  registers: [registry],
});

const jobQueueDepth = new Gauge({
  name: 'pacer_job_queue_depth',
  help: 'Background jobs waiting (queued) or running, by type, read from the jobs table at scrape time',
  labelNames: ['type', 'state'] as const,
  registers: [registry],
});

const jobOutcomes = new Counter({
  name: 'pacer_job_outcomes_total',
  help: 'Job runs this process ended, by type and outcome (succeeded, failed, cancelled, retried)',
  labelNames: ['type', 'outcome'] as const,
  registers: [registry],
});

const importRows = new Counter({
  name: 'pacer_import_rows_total',
  help: 'CSV import rows (dry runs left out), by import type and outcome (applied, failed, dropped)',
  labelNames: ['type', 'outcome'] as const,
  registers: [registry],
});

const syncRuns = new Counter({
  name: 'pacer_sync_runs_total',
  help: 'WordPress sync runs (dry runs left out), by kind and result (succeeded, failed, cancelled)',
  labelNames: ['kind', 'result'] as const,
  registers: [registry],
});

export function countRequest(route: string, method: string, status: number, seconds: number): void {
  requestDuration.observe({ route, method, status }, seconds);
}

export function countJobOutcome(type: JobType, outcome: 'succeeded' | 'failed' | 'cancelled' | 'retried'): void {
  jobOutcomes.inc({ type, outcome });
}

export function countImportRows(type: ImportKind, rows: { applied: number; failed: number; dropped: number }): void {
  for (const [outcome, count] of Object.entries(rows)) if (count > 0) importRows.inc({ type, outcome }, count);
}

export function countSyncRun(kind: SyncKind, result: 'succeeded' | 'failed' | 'cancelled'): void {
  syncRuns.inc({ kind, result });
}

let processMetricsStarted = false;
const watchedDatabases = new WeakSet<Knex>();

/**
 * Starts what only a process that serves its metrics needs: Node's process metrics (CPU, memory, event loop lag,
 * GC) and the watch on this database's connection pool. Safe to call again.
 */
export function startMetrics(db: Knex): void {
  if (!processMetricsStarted) {
    collectDefaultMetrics({ register: registry });
    processMetricsStarted = true;
  }
  if (watchedDatabases.has(db)) return;
  watchedDatabases.add(db);
  watchPoolAcquires(db, { acquired: (seconds) => poolAcquireWait.observe(seconds), timedOut: () => poolAcquireTimeouts.inc() });
}

/** Reads the gauges of this moment (pool, queue depth) and answers every metric in Prometheus' text format. */
export async function renderMetrics(db: Knex): Promise<{ contentType: string; text: string }> {
  const pool = poolActivityOf(db);
  poolPendingAcquires.set(pool.pending);
  poolUsedConnections.set(pool.used);
  const unfinished = await countUnfinishedJobs(db);
  // Every type and state is written, so a queue that empties shows 0 rather than its last depth.
  for (const type of JOB_TYPES)
    for (const state of ['queued', 'running'] as const)
      jobQueueDepth.set({ type, state }, unfinished.find((row) => row.type === type && row.state === state)?.count ?? 0);
  return { contentType: registry.contentType, text: await registry.metrics() };
}

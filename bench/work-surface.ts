/**
 * The work-surface figures of issue 12, measured by `npm run bench` (bench/records.ts) on its own seeded database
 * and built server:
 *   - GET /api/search p99 (20 connections) for a term in about 1 % of the events (≤ 100 ms) and a rare one (≤ 30 ms);
 *   - every event exported as CSV, by GET /api/export/events (≤ 2 s, the server's RSS growing ≤ 50 MB meanwhile) and
 *     by `pacer export events --out` (the built CLI, ≤ 2 s).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { places } from './fill.js';
import { pacerNodeOptions } from '../scripts/pacer-node-options.mjs';

interface Latency {
  reqPerSec: number;
  p50: number;
  p99: number;
  failures: number;
}

export interface WorkSurfaceBench {
  origin: string;
  cookie: string;
  /** The server process, whose memory the export figure reads. */
  serverPid: number;
  events: number;
  /** The servers' settings (database, session secret, production mode): the CLI runs with them too. */
  env: Record<string, string>;
  /** One latency measurement of a path with the bench's connections (bench/records.ts's autocannon run). */
  measure(url: string, seconds: number): Promise<Latency>;
  seconds: number;
}

/** Resident memory of a process now (Linux), in bytes. */
function rssOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) * 1024 : 0;
}

/** How many events a search finds (the event group's total). */
async function eventsMatching(bench: SearchingBench, term: string): Promise<number> {
  const res = await fetch(`${bench.origin}/api/search?q=${encodeURIComponent(term)}`, { headers: { cookie: bench.cookie } });
  if (res.status !== 200) throw new Error(`search ${term}: status ${res.status}`);
  const body = (await res.json()) as { groups: Array<{ type: string; total: number }> };
  return body.groups.find((group) => group.type === 'event')!.total;
}

/** What finding the search terms needs: a server, its session and the events seeded. */
type SearchingBench = Pick<WorkSurfaceBench, 'origin' | 'cookie' | 'events'>;

/** Of fragments of the seeded place names, the one found in the number of events nearest 1 % of them. */
export async function onePercentTerm(bench: SearchingBench): Promise<{ term: string; total: number }> {
  const goal = bench.events / 100;
  const candidates = new Set<string>();
  for (const place of places.slice(0, 40)) {
    const lower = place.toLowerCase();
    for (const length of [4, 5]) if (lower.length >= length) candidates.add(lower.slice(0, length));
  }
  let best = { term: '', total: 0 };
  for (const term of candidates) {
    const total = await eventsMatching(bench, term);
    if (Math.abs(total - goal) < Math.abs(best.total - goal)) best = { term, total };
  }
  return best;
}

/** Reads a download to its end: bytes and lines. */
async function drain(body: AsyncIterable<Uint8Array>): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines += 1;
  }
  return { bytes, lines };
}

async function exportOverHttp(bench: WorkSurfaceBench) {
  const before = rssOf(bench.serverPid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(bench.serverPid))), 10);
  const started = performance.now();
  // As a browser downloads it: compression, when the server offers it, is part of the figure.
  const res = await fetch(`${bench.origin}/api/export/events`, { headers: { cookie: bench.cookie, 'accept-encoding': 'gzip, br' } });
  if (res.status !== 200) throw new Error(`export: status ${res.status}`);
  const { bytes, lines } = await drain(res.body as unknown as AsyncIterable<Uint8Array>);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(bench.serverPid));
  return { rows: lines - 1, bytes, seconds, growthMb: (peak - before) / 1e6 };
}

async function exportByCli(bench: WorkSurfaceBench) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-bench-export-'));
  const out = path.join(dir, 'events.csv');
  try {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      // As `pacer` starts it: with its node options, so from the CLI's code cache (ADR 0087).
      const child = spawn(process.execPath, [...pacerNodeOptions(), 'bin/pacer.js', 'export', 'events', '--out', out], {
        env: { ...process.env, ...bench.env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pacer export exited with ${code}`))));
    });
    return { seconds: (performance.now() - started) / 1000, bytes: statSync(out).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One influencer's handle, the rare search term: none of its grams but the digits is in another type's documents. */
export const RARE_TERM = 'runner_4321';

/** Measures the figures and answers them as rows of bench/records.ts's table (request, Pacer, limit, ratio, goal). */
export async function workSurfaceRows(bench: WorkSurfaceBench, load: () => string): Promise<string[]> {
  const rows: string[] = [];
  const row = (title: string, figure: string, goal: string, met: boolean) => {
    rows.push(`| ${title} | ${figure} | — | — | ${goal}: ${met ? 'met' : 'NOT MET'} |`);
    console.log(rows.at(-1), `(load ${load()})`);
  };

  const viaHttp = await exportOverHttp(bench);
  row(
    `GET /api/export/events (${viaHttp.rows} rows, ${(viaHttp.bytes / 1e6).toFixed(1)} MB sent)`,
    `${viaHttp.seconds.toFixed(2)} s, server RSS +${viaHttp.growthMb.toFixed(1)} MB`,
    '≤ 2 s, RSS growth ≤ 50 MB',
    viaHttp.seconds <= 2 && viaHttp.growthMb <= 50,
  );
  const viaCli = await exportByCli(bench);
  row(
    `pacer export events --out (${(viaCli.bytes / 1e6).toFixed(1)} MB)`,
    `${viaCli.seconds.toFixed(2)} s (the CLI's start included)`,
    '≤ 2 s',
    viaCli.seconds <= 2,
  );

  const common = await onePercentTerm(bench);
  for (const [title, term, limit] of [
    [`GET /api/search, a term in ~1 % of events ("${common.term}", ${common.total} events)`, common.term, 100],
    [`GET /api/search, a rare term ("${RARE_TERM}")`, RARE_TERM, 30],
  ] as const) {
    const url = `${bench.origin}/api/search?q=${encodeURIComponent(term)}`;
    await bench.measure(url, 2);
    const result = await bench.measure(url, bench.seconds);
    row(
      title,
      `${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${result.failures ? `, ${result.failures} FAILED` : ''}`,
      `p99 ≤ ${limit} ms`,
      result.p99 <= limit && result.failures === 0,
    );
  }
  return rows;
}

// Backup and restore of a filled database, timed, with the peak RSS of each `pacer` process (issue 31's numbers).
//   npm run bench:backup                              # SQLite, 100k events, 200k contacts, 1,000 files of 100 KB
//   BENCH_EVENTS=20000 BENCH_FILES=200 npm run bench:backup
//   BENCH_DATABASE_URL=mysql://root@127.0.0.1:3306/pacer_bench_backup npm run bench:backup
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '@db/knex.js';
import { encodeTimestamp } from '@db/codecs.js';
import { migrateToLatest } from '@services/schema.js';
import { fill, volumesFor } from './fill.js';

const events = Number(process.env.BENCH_EVENTS ?? 100_000);
const fileCount = Number(process.env.BENCH_FILES ?? 1000);
const work = mkdtempSync(path.join(tmpdir(), 'pacer-bench-backup-'));
const sourceUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${path.join(work, 'source.sqlite')}`;
const targetUrl = sourceUrl.startsWith('sqlite:') ? `sqlite:${path.join(work, 'target.sqlite')}` : `${sourceUrl}_target`;

function peakRssKb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Runs `pacer …` from the sources, timing it and polling its peak RSS. */
function pacer(args: string[], env: Record<string, string>): Promise<{ seconds: number; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/index.ts', ...args], {
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let peak = 0;
    const poll = setInterval(() => (peak = Math.max(peak, (child.pid && peakRssKb(child.pid)) || 0)), 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`pacer ${args.join(' ')} exited ${code}`));
      else resolve({ seconds: (performance.now() - started) / 1000, peakRssMb: peak / 1024 });
    });
  });
}

async function recreate(url: string) {
  if (url.startsWith('sqlite:')) return;
  const name = new URL(url).pathname.slice(1);
  const admin = createDatabase({ url: url.replace(/\/[^/]*$/, '/') });
  await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  await admin.destroy();
}

await recreate(sourceUrl);
await recreate(targetUrl);
const uploads = path.join(work, 'uploads');
mkdirSync(uploads);
const db = createDatabase({ url: sourceUrl });
await migrateToLatest(db);
console.log(`filling: ${events} events, ${2 * events} contacts, ${fileCount} files of 100 KB…`);
await fill(db, volumesFor(events));
const now = encodeTimestamp(new Date());
for (let i = 0; i < fileCount; i++) {
  const key = `${randomUUID()}.png`;
  writeFileSync(path.join(uploads, key), randomBytes(100_000));
  await db('files').insert({
    entityType: 'event',
    entityId: 1 + (i % events),
    fileName: key,
    originalName: 'photo.png',
    filePath: key,
    fileType: 'image/png',
    fileSize: 100_000,
    fileCategory: 'image',
    uploadedAt: now,
  });
}
await db.destroy();

const archive = path.join(work, 'bench.tar.gz');
const backup = await pacer(['db', 'backup', '--out', archive], { DATABASE_URL: sourceUrl, UPLOAD_DIR: uploads, PACER_HOME: work });
const restore = await pacer(['db', 'restore', archive, '--yes'], {
  DATABASE_URL: targetUrl,
  UPLOAD_DIR: path.join(work, 'restored'),
  PACER_HOME: work,
});
console.log(
  JSON.stringify(
    {
      database: sourceUrl.split(':')[0],
      events,
      contacts: 2 * events,
      files: fileCount,
      archiveMb: Math.round(statSync(archive).size / 1e5) / 10,
      backup: { seconds: Math.round(backup.seconds * 10) / 10, peakRssMb: Math.round(backup.peakRssMb) },
      restore: { seconds: Math.round(restore.seconds * 10) / 10, peakRssMb: Math.round(restore.peakRssMb) },
    },
    null,
    2,
  ),
);
rmSync(work, { recursive: true, force: true });

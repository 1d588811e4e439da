import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, rowsBody, type LiveApp } from '../helpers/job-bodies.js';
import { waitUntil } from '../helpers/wait.js';

const MB = 1024 * 1024;

interface Report {
  baseline: number;
  peak: number;
  jobs: Array<{ state: string; params: string | { input?: { bytes: number } } }>;
  inputs: number;
}

/**
 * Issue 28: twenty 49 MB job bodies at once took 3.7 GB. The server (in a child process, measuring its own live
 * memory after full collections) is sent four ~40 MB bodies at once (two users, two each: as many as it reads at
 * once) and must stay within a bound far below one body, through the receiving and the jobs reading them back.
 */
describe('memory while large job bodies arrive', () => {
  let child: ChildProcess;
  let live: LiveApp;
  const ask = async <T>(message: string): Promise<T> => {
    const answer = once(child, 'message') as Promise<[T]>;
    child.send(message);
    return (await answer)[0];
  };

  beforeAll(async () => {
    child = fork('test/fixtures/job-body-server.ts', [], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: 'inherit' });
    const [hello] = (await once(child, 'message')) as [{ port: number; origin: string; cookies: Record<string, string> }];
    live = { port: hello.port, origin: hello.origin, cookies: new Map(Object.entries(hello.cookies)), close: async () => undefined };
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      child.send('stop');
      await once(child, 'exit');
    }
  });

  it('stays flat: four 40 MB bodies at once grow its live memory by far less than holding them', async () => {
    // A header the import refuses (no Email column): each job reads its whole stored body back, then fails fast.
    const body = rowsBody(
      '{"type":"import","params":{"kind":"brands","data":[',
      300_000,
      (i) => JSON.stringify({ Brand: `Memory ${i}`, 'First Name': 'Pat', 'Last Name': `Row${i}`, Note: 'x'.repeat(80) }),
      ']}}',
    );
    expect(body.length).toBeGreaterThan(40 * MB);
    await ask('watch');
    const answers = await Promise.all(
      ['ann', 'ann', 'ben', 'ben'].map((user) => post(live, user, '/api/jobs', body.pieces(), { length: body.length })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202]);
    let report: Report | undefined;
    await waitUntil(
      async () => (report = await ask<Report>('report')).jobs.filter((job) => job.state === 'failed').length === 4,
      'the four jobs to read their input back and refuse it',
      240_000,
    );
    // Every byte was stored (and removed once the job was done).
    for (const job of report!.jobs) {
      const params = typeof job.params === 'string' ? (JSON.parse(job.params) as { input?: { bytes: number } }) : job.params;
      expect(params.input?.bytes).toBe(body.length);
    }
    expect(report!.inputs).toBe(0);
    const growth = report!.peak - report!.baseline;
    // Held whole, one body is 40 MB as bytes and several times that parsed; four at once were 160 MB of bytes alone
    // (the code that held them grew by 112 MB). Streamed, it grows by 11–15 MB on a quiet machine; on a loaded one the
    // stored-chunk writes and the jobs' read-back overlap more, so the bound leaves room for that (48 MB seen).
    expect(growth, `live memory grew by ${Math.round(growth / MB)} MB`).toBeLessThan(64 * MB);
  }, 300_000);
});

/**
 * Waiting in tests. The suite runs on loaded machines, so a test never sleeps a fixed time and hopes the thing it
 * waits for has happened: it waits for the thing itself, with a deadline generous enough that only a real failure
 * reaches it, and then fails saying what never happened.
 */

import type { JobView } from '@shared/schemas/jobs.js';

/** How long `waitUntil` waits by default: far beyond any healthy wait (CI once needed 10 s at a load of 13), within the 30 s test timeout. */
const WAIT_DEADLINE_MS = 25_000;

/**
 * Resolves once `condition` holds (checked at once, then every few ms); rejects with "timed out after N ms waiting
 * for <what>" if it still does not hold at the deadline.
 */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_DEADLINE_MS): Promise<void> {
  // performance.now, not Date.now: a test may fake the date, and the deadline must still come.
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A promise the test settles itself: a fake holds its answer on `promise` until the test calls `release()`. */
export function gate(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/** A job as `GET /api/jobs/{id}` answers it, once it has ended (succeeded, failed or cancelled), read by `agent`. */
export async function finishedJob(
  agent: { get(url: string): PromiseLike<{ status: number; body: unknown }> },
  id: number,
): Promise<JobView> {
  let job: JobView | undefined;
  await waitUntil(
    async () => {
      const res = await agent.get(`/api/jobs/${id}`);
      if (res.status !== 200) throw new Error(`GET /api/jobs/${id} answered ${res.status}`);
      job = res.body as JobView;
      return ['succeeded', 'failed', 'cancelled'].includes(job.state);
    },
    `job ${id} to finish`,
    60_000,
  );
  return job!;
}

import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SendOptions, SendResult, SendTarget } from './send.js';

/**
 * Webhook deliveries are sent from a thread of their own (ADR 0112): building, signing and writing the requests and
 * reading the answers then take none of the time of the thread that serves requests and writes records. One thread
 * per process, started on the first send; like a request's socket, it keeps the process alive only while it has
 * sends under way. A thread that stops fails the sends it held (retried as any failed attempt is) and the next send
 * starts another.
 */

interface SendingThread {
  worker: Worker;
  /** Batches sent to it and not answered yet, by number: how many deliveries each holds, and who waits. */
  waiting: Map<number, { size: number; resolve: (results: SendResult[]) => void }>;
}

let current: SendingThread | null = null;
let nextBatch = 0;

/**
 * The thread's code: the built file beside the bundle this runs in (dist/webhook-sender.js), or the sources, with
 * tsx registered first, when this code runs from them (tests, `tsx` scripts).
 */
function newWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new Worker(path.join(path.dirname(here), 'webhook-sender.js'));
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const entry = path.join(path.dirname(here), 'send-thread.ts');
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(entry)});`, { eval: true });
}

function startThread(): SendingThread {
  const thread: SendingThread = { worker: newWorker(), waiting: new Map() };
  thread.worker.on('message', ({ batch, results }: { batch: number; results: SendResult[] }) => {
    thread.waiting.get(batch)?.resolve(results);
    thread.waiting.delete(batch);
    if (thread.waiting.size === 0) thread.worker.unref();
  });
  const stopped = (reason: string) => {
    if (current === thread) current = null;
    const failed: SendResult = { ok: false, status: null, body: null, error: reason.slice(0, 300), durationMs: 0 };
    for (const { size, resolve } of thread.waiting.values()) resolve(Array.from({ length: size }, () => failed));
    thread.waiting.clear();
  };
  thread.worker.on('error', (error) => stopped(`The webhook sending thread failed: ${error.message}`));
  thread.worker.on('exit', (code) => stopped(`The webhook sending thread stopped (exit code ${code})`));
  // After the listeners: adding a 'message' listener refs the worker again.
  thread.worker.unref();
  return thread;
}

/** Sends each delivery once, all at once, from the sending thread: one attempt each, the results in their order. */
export function sendFromThread(targets: readonly SendTarget[], options: SendOptions): Promise<SendResult[]> {
  if (targets.length === 0) return Promise.resolve([]);
  const thread = (current ??= startThread());
  const batch = nextBatch++;
  return new Promise((resolve) => {
    // A process with nothing else to do (a command ending, a server shutting down) waits for the answers.
    if (thread.waiting.size === 0) thread.worker.ref();
    thread.waiting.set(batch, { size: targets.length, resolve });
    thread.worker.postMessage({
      batch,
      targets: targets.map(({ url, secret, messageId, body }) => ({ url, secret, messageId, body })),
      options: { timeoutMs: options.timeoutMs, allowPrivate: options.allowPrivate },
    });
  });
}

/** Stops the sending thread: the sends it holds fail (to be retried), and the next send starts another thread. */
export async function stopSendingThread(): Promise<void> {
  const thread = current;
  current = null;
  await thread?.worker.terminate();
}

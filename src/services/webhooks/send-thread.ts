import { parentPort } from 'node:worker_threads';
import { sendWebhook, type SendOptions, type SendTarget } from './send.js';

/**
 * The webhook sending thread (./sender.ts starts it; built as dist/webhook-sender.js): sends each batch it is given,
 * every delivery at once, and answers the results in the batch's order.
 */
parentPort?.on('message', ({ batch, targets, options }: { batch: number; targets: SendTarget[]; options: SendOptions }) => {
  void Promise.all(targets.map((target) => sendWebhook(target, options))).then((results) => parentPort?.postMessage({ batch, results }));
});

import { createHash } from 'node:crypto';

/**
 * A record name for row `index` made of twelve letters drawn from its hash, so hardly any two names are alike.
 * Numbered names ("Brand 1", "Brand 2"…) are each a similar name of every other, and pairing thousands of them as
 * possible duplicates, not what a test is about, took a third of the worker take-over test's time.
 */
export function unlikeName(index: number): string {
  return [...createHash('sha256').update(String(index)).digest().subarray(0, 12)]
    .map((byte) => String.fromCharCode(97 + (byte % 26)))
    .join('');
}

import { randomBytes } from 'node:crypto';

/** The Redis the queue-mode tests use (CI starts it; see .ci/run). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A BullMQ key prefix of the test's own, so test files running side by side never share a queue. */
export const testQueuePrefix = () => `pacer-test-${process.pid}-${randomBytes(4).toString('hex')}`;

import type { JobView } from '@shared/schemas/jobs.js';

/** A job as GET /api/jobs/{id} answers it: running by default, with what the test changes. */
export function jobView(overrides: Partial<JobView> = {}): JobView {
  return {
    id: 7,
    type: 'sync',
    state: 'running',
    params: { kind: 'events' },
    trigger: 'web',
    startedBy: 'staff@example.org',
    progress: { done: 0, total: null, phase: 'Reading posts' },
    result: null,
    error: null,
    attempts: 1,
    cancelRequested: false,
    createdAt: '2026-11-20T10:00:00.000Z',
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: null,
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

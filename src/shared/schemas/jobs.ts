/** Wire shapes of background jobs: what `/api/jobs` answers and the screens show. */

export const JOB_TYPES = ['import', 'sync', 'newsletter', 'backup', 'general-import'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const isJobType = (value: string): value is JobType => (JOB_TYPES as readonly string[]).includes(value);
export const isJobState = (value: string): value is JobState => (JOB_STATES as readonly string[]).includes(value);
export const isFinished = (state: JobState) => state === 'succeeded' || state === 'failed' || state === 'cancelled';

interface JobProgress {
  done: number;
  /** null while the total is not known yet. */
  total: number | null;
  phase: string | null;
}

/** Why a job failed: the answer its endpoint would have given (status, message, code). */
export interface JobFailure {
  status: number;
  message: string;
  code: string;
  body: Record<string, unknown>;
}

export interface JobView {
  id: number;
  type: JobType;
  state: JobState;
  /** What the job was asked to do (an import's rows are not repeated here). */
  params: Record<string, unknown>;
  trigger: string;
  startedBy: string | null;
  progress: JobProgress;
  /** The finished job's summary: the same answer the screen or the endpoint gives. */
  result: Record<string, unknown> | null;
  error: JobFailure | null;
  attempts: number;
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

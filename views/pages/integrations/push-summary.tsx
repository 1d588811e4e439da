import type { JobView } from '@shared/schemas/jobs.js';
import { describePush, type PushResult } from '@shared/schemas/newsletter.js';

/** A finished push as `pacer newsletter push` prints it: the summary line, then each member that failed. */
export function PushSummary({ job }: { job: JobView }) {
  const result = job.result as unknown as PushResult;
  return (
    <div className="push-summary" data-testid="push-summary">
      <p>{describePush(result, String(job.params.audienceId))}</p>
      {result.errors.length > 0 && (
        <ul className="push-errors">
          {result.errors.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

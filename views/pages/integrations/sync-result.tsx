import type { SyncResult } from '@shared/schemas/integrations.js';

const MAX_LISTED_PROBLEMS = 20;

function ProblemList({ problems, label }: { problems: string[]; label: string }) {
  if (problems.length === 0) return null;
  return (
    <details className="sync-problems">
      <summary>
        {problems.length} {label}
      </summary>
      <ul>
        {problems.slice(0, MAX_LISTED_PROBLEMS).map((problem, index) => (
          <li key={index}>{problem}</li>
        ))}
        {problems.length > MAX_LISTED_PROBLEMS && <li className="muted">…and {problems.length - MAX_LISTED_PROBLEMS} more</li>}
      </ul>
    </details>
  );
}

/** A finished sync's counts and problems: on its card, and on the Jobs page. */
export function SyncResultView({ result }: { result: SyncResult }) {
  const warnings = result.warnings ?? [];
  return (
    <div className="sync-result" data-testid="sync-result">
      <div className="sync-tiles">
        <div>
          <span className="sync-number">{result.created}</span> created
        </div>
        <div>
          <span className="sync-number">{result.updated}</span> updated
        </div>
        <div>
          <span className="sync-number">{result.errors.length}</span> errors
        </div>
        <div>
          <span className="sync-number">{warnings.length}</span> warnings
        </div>
      </div>
      <ProblemList problems={result.errors} label="errors" />
      <ProblemList problems={warnings} label="warnings (saved as other)" />
      <ProblemList problems={result.unpublished} label="no longer published (kept)" />
    </div>
  );
}

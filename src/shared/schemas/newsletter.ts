/** Wire shape of a newsletter push (`pacer newsletter push` and the Integrations page's form, both run as a job). */

export interface PushResult {
  total: number;
  added: number;
  updated: number;
  /** Already in the audience but unsubscribed: details updated, never re-subscribed. */
  unsubscribed: number;
  failed: number;
  errors: string[];
  dryRun: boolean;
}

/** The push's one-line summary, as the CLI prints it and the form shows it (its problems listed after it). */
export function describePush(result: PushResult, audienceId: string): string {
  if (result.dryRun) return `Dry run: ${result.total} contact${result.total === 1 ? '' : 's'} would be pushed to audience ${audienceId}`;
  return `Pushed ${result.total} contacts to audience ${audienceId}: ${result.added} added, ${result.updated} updated, ${result.unsubscribed} unsubscribed (kept unsubscribed), ${result.failed} failed`;
}

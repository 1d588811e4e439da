/**
 * A record's activity timeline and the admin activity log (issue 33 points 4 and 5; docs/decisions/0106), as the
 * API answers them and the pages read them.
 */

/** What a timeline entry is about. */
export const TIMELINE_KINDS = ['note', 'task', 'change', 'payment', 'file', 'contact', 'mailchimp'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** What an activity log entry is about. */
export const LOG_KINDS = [
  'change',
  'note',
  'task',
  'import',
  'sync',
  'token',
  'sign_in',
  'failed_sign_in',
  'security',
  'export',
  'mailchimp',
] as const;
export type LogKind = (typeof LOG_KINDS)[number];

/** How a change was made: on the screens, by the command line, an import, a sync or an API token. */
export type ActivitySource = 'screen' | 'cli' | 'import' | 'sync' | 'token';

export interface ActivityItem<K extends string = string> {
  /** Unique within the answer: the source table and the row ("note-12", "history-40"). */
  id: string;
  kind: K;
  at: string;
  actor: { id: number; name: string } | null;
  /** Null where the entry does not record it (notes, tasks). */
  source: ActivitySource | null;
  summary: string;
  /** The record (or contact) the entry is about, when it is about one. */
  recordType: string | null;
  recordId: number | null;
}

export interface ActivityPage<K extends string = string> {
  items: Array<ActivityItem<K>>;
  /** Give it as `after` for the next (older) page; null on the last page. */
  next: string | null;
}

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  note: 'Notes',
  task: 'Tasks',
  change: 'Changes',
  payment: 'Payments',
  file: 'Files',
  contact: 'Contacts',
  mailchimp: 'Mailchimp',
};

export const LOG_KIND_LABELS: Record<LogKind, string> = {
  change: 'Changes',
  note: 'Notes',
  task: 'Tasks',
  import: 'Imports',
  sync: 'Syncs',
  token: 'API token changes',
  sign_in: 'Sign-ins',
  failed_sign_in: 'Failed sign-ins',
  security: 'Security changes',
  export: 'Exports',
  mailchimp: 'Mailchimp pushes',
};

export const SOURCE_LABELS: Record<ActivitySource, string> = {
  screen: 'Screen',
  cli: 'Command line',
  import: 'Import',
  sync: 'Sync',
  token: 'API token',
};

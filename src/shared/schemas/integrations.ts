import type { SyncKind } from '../record-types.js';
import { text } from './text.js';

/** Wire shapes of the integrations area: what the sync, WordPress and Mailchimp endpoints answer. */

export interface SyncResult {
  success: boolean;
  message: string;
  kind: SyncKind;
  created: number;
  updated: number;
  unchanged: number;
  /** Items that could not be saved. */
  failed: number;
  /** Item problems: unmappable values (the item is still saved, the value left empty), unsaved items. */
  errors: string[];
  /**
   * Values adapted without loss: a type outside our list saved as `other`, the site's words kept beside it.
   * Absent from the stored results of sync jobs that finished before warnings were kept apart.
   */
  warnings?: string[];
  /** Records whose posts are no longer published: reported, never deleted. */
  unpublished: string[];
  full: boolean;
  dryRun: boolean;
  durationMs: number;
  runId: number | null;
}

/** What a sync run did, as stored and as shown. */
export interface SyncRunFigures {
  startedAt: string;
  finishedAt: string | null;
  full: boolean;
  created: number;
  updated: number;
  failed: number;
  durationMs: number | null;
  message: string | null;
  errors: string[];
  /** Values adapted without loss (a type outside our list saved as other). */
  warnings: string[];
  notices: string[];
}

/** A run as the Integrations page shows it: who started it by email, and one status instead of success. */
export interface SyncRunView extends SyncRunFigures {
  id: number;
  kind: SyncKind;
  trigger: string;
  startedBy: string | null;
  /** 'cancelled': its job was cancelled; the pages read before the stop were written (created, updated). */
  status: 'succeeded' | 'failed' | 'cancelled' | 'unfinished';
}

export interface MailchimpAccount {
  account_name: string;
  email: string;
  industry: string;
  total_subscribers: number;
}

export interface MailchimpAudience {
  id: string;
  name: string;
  stats: { member_count: number };
}

/** GET /wp-json/ → the parts shown as site info. */
export interface WpSiteInfo {
  name: string;
  url: string;
  description: string;
}

/** GET /api/integrations/overview */
export interface IntegrationsOverview {
  wordpress: { configured: boolean; url: string | null; credentials: boolean };
  mailchimp: { configured: boolean };
  latestRuns: Record<SyncKind, SyncRunView | null>;
}

/** A Mailchimp audience id, as the audiences list gives it. */
export const audienceId = text('An audience id is required')
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a valid audience id');

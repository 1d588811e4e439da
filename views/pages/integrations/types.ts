import type { SyncKind } from '../../../src/integrations/wordpress/content-model.js';
import type { SyncResult, SyncRunView } from '../../../src/services/sync/service.js';

/** GET /api/integrations/overview */
export interface IntegrationsOverview {
  wordpress: { configured: boolean; url: string | null; credentials: boolean };
  mailchimp: { configured: boolean };
  latestRuns: Record<SyncKind, SyncRunView | null>;
}

export type ConnectionStatus = 'untested' | 'testing' | 'connected' | 'failed';

/** What the page hands each service's tab: the overview, and the connection status it shares with the header. */
export interface ServiceTabProps {
  overview: IntegrationsOverview;
  status: ConnectionStatus;
  onStatus: (status: ConnectionStatus) => void;
}

export type { SyncKind, SyncResult, SyncRunView };

export const SYNC_CARDS: Array<{ kind: SyncKind; title: string }> = [
  { kind: 'events', title: 'Events' },
  { kind: 'professionals', title: 'Professionals' },
  { kind: 'runclubs', title: 'Run Clubs' },
];

import { RECORD_TYPE_INFO, SYNC_KINDS, syncedTypeOf, type SyncKind } from '@shared/record-types.js';
import type { IntegrationsOverview, SyncResult, SyncRunView } from '@shared/schemas/integrations.js';

export type ConnectionStatus = 'untested' | 'testing' | 'connected' | 'failed';

/** What the page hands each service's tab: the overview, and the connection status it shares with the header. */
export interface ServiceTabProps {
  overview: IntegrationsOverview;
  status: ConnectionStatus;
  onStatus: (status: ConnectionStatus) => void;
}

export type { SyncKind, SyncResult, SyncRunView };

/** One sync card per synced type (spec point 6: Events, Professionals, Run Clubs). */
export const SYNC_CARDS: Array<{ kind: SyncKind; title: string }> = SYNC_KINDS.map((kind) => ({
  kind,
  title: RECORD_TYPE_INFO[syncedTypeOf(kind)].plural,
}));

import { Badge } from '@views/components/ui/primitives.js';
import type { ConnectionStatus } from './types.js';

const LOOK: Record<ConnectionStatus, { text: string; tone: 'muted' | 'info' | 'success' | 'danger' }> = {
  untested: { text: 'Not tested', tone: 'muted' },
  testing: { text: 'Testing...', tone: 'info' },
  connected: { text: 'Connected', tone: 'success' },
  failed: { text: 'Failed', tone: 'danger' },
};

/** The connection status of spec point 4: Not tested, then Connected or Failed. */
export function ConnectionBadge({ status, testId }: { status: ConnectionStatus; testId: string }) {
  const look = LOOK[status];
  return (
    <Badge tone={look.tone} data-testid={testId}>
      {look.text}
    </Badge>
  );
}

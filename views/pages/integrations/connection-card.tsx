import type { ReactNode } from 'react';
import { Alert, Button, Card, CardHeader } from '@views/components/ui/primitives.js';
import { useIsAdmin } from '@views/hooks/use-session.js';
import { ConnectionBadge } from './connection-badge.js';
import type { ConnectionStatus } from './types.js';

/**
 * The Connection card both tabs show: Test Connection, the status badge, the not-configured alert, then the tab's
 * own details. Only an admin can set the server's settings, so only an admin is told which ones (`settings`);
 * staff and viewers are asked to get an admin to connect `service`.
 */
export function ConnectionCard({
  status,
  onTest,
  statusTestId,
  configured,
  service,
  settings,
  children,
}: {
  status: ConnectionStatus;
  onTest: () => void;
  statusTestId: string;
  configured: boolean;
  /** What is connected, as a sentence names it ("the website"). */
  service: string;
  /** The server settings an admin sets to connect it. */
  settings: string;
  children?: ReactNode;
}) {
  const isAdmin = useIsAdmin();
  return (
    <Card>
      <CardHeader
        title="Connection"
        actions={
          <Button onClick={onTest} disabled={status === 'testing'}>
            {status === 'testing' ? 'Testing...' : 'Test Connection'}
          </Button>
        }
      />
      <p>
        Status: <ConnectionBadge status={status} testId={statusTestId} />
      </p>
      {!configured && (
        <Alert title="Not configured">
          {isAdmin ? `Set ${settings} on the server to connect ${service}.` : `Ask an admin to connect ${service}.`}
        </Alert>
      )}
      {children}
    </Card>
  );
}

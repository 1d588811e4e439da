import type { ReactNode } from 'react';
import { Alert, Button, Card, CardHeader } from '@views/components/ui/primitives.js';
import { ConnectionBadge } from './connection-badge.js';
import type { ConnectionStatus } from './types.js';

/** The Connection card both tabs show: Test Connection, the status badge, the not-configured alert, then the tab's own details. */
export function ConnectionCard({
  status,
  onTest,
  statusTestId,
  configured,
  notConfigured,
  children,
}: {
  status: ConnectionStatus;
  onTest: () => void;
  statusTestId: string;
  configured: boolean;
  notConfigured: string;
  children?: ReactNode;
}) {
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
      {!configured && <Alert title="Not configured">{notConfigured}</Alert>}
      {children}
    </Card>
  );
}

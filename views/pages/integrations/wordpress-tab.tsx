import { useState } from 'react';
import { messageOf } from '@shared/api-error.js';
import { Alert } from '@views/components/ui/primitives.js';
import { apiRequest } from '@views/data/http.js';
import { ConnectionCard } from './connection-card.js';
import { runConnectionTest } from './connection-test.js';
import { useActiveJobs } from '../jobs/job-progress.js';
import { SyncCard } from './sync-card.js';
import { SYNC_CARDS, type ServiceTabProps } from './types.js';
import type { WpSiteInfo } from '@shared/schemas/integrations.js';

export function WordPressTab({ overview, status, onStatus }: ServiceTabProps) {
  const [site, setSite] = useState<WpSiteInfo | null>(null);
  const [siteError, setSiteError] = useState<string | null>(null);
  // Syncs already queued or running (before a reload, elsewhere): each card follows its own kind's.
  const activeSyncs = useActiveJobs('sync');

  async function test() {
    onStatus('testing');
    const result = await runConnectionTest('/api/wordpress/test');
    onStatus(result ? 'connected' : 'failed');
    if (!result) return;
    try {
      setSite(await apiRequest<WpSiteInfo>('GET', '/api/wordpress/site-info'));
      setSiteError(null);
    } catch (error) {
      setSiteError(messageOf(error, 'Could not read the site info'));
    }
  }

  return (
    <div className="integration-tab">
      <ConnectionCard
        status={status}
        onTest={test}
        statusTestId="wordpress-status"
        configured={overview.wordpress.configured}
        service="the website"
        settings="WORDPRESS_URL, WORDPRESS_USER and WORDPRESS_APP_PASSWORD"
      >
        {overview.wordpress.url && <p className="muted">Address: {overview.wordpress.url}</p>}
        {site && (
          <dl className="dl site-info" data-testid="site-info">
            <dt>Name</dt>
            <dd>{site.name || '—'}</dd>
            <dt>URL</dt>
            <dd>
              <a href={site.url} target="_blank" rel="noreferrer">
                {site.url}
              </a>
            </dd>
            <dt>Description</dt>
            <dd>{site.description || '—'}</dd>
          </dl>
        )}
        {siteError && <Alert variant="destructive">{siteError}</Alert>}
      </ConnectionCard>
      <div className="sync-grid">
        {SYNC_CARDS.map((card) => (
          <SyncCard
            key={card.kind}
            kind={card.kind}
            title={card.title}
            connected={status === 'connected'}
            lastRun={overview.latestRuns[card.kind]}
            activeJobId={activeSyncs.jobs?.find((job) => job.params.kind === card.kind)?.id ?? null}
            onBusy={activeSyncs.refresh}
          />
        ))}
      </div>
    </div>
  );
}

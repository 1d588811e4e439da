import { useState } from 'react';
import { useLoaderData, useSearchParams } from 'react-router';
import { Card, CardHeader } from '@views/components/ui/primitives.js';
import { dataSource, gated } from '@views/data/source.js';
import { ConnectionBadge } from './connection-badge.js';
import { MailchimpTab } from './mailchimp-tab.js';
import type { ConnectionStatus } from './types.js';
import { WordPressTab } from './wordpress-tab.js';
import type { IntegrationsOverview } from '@shared/schemas/integrations.js';
import { Tabs } from '@views/components/ui/tabs.js';

export const loader = gated(({ context }) => dataSource(context).integrationsOverview());

const TABS = { website: 'Content Website', email: 'Email Marketing' } as const;
type TabKey = keyof typeof TABS;

export function Component() {
  const overview = useLoaderData() as IntegrationsOverview;
  const [params, setParams] = useSearchParams();
  const tab: TabKey = params.get('tab') === 'email' ? 'email' : 'website';
  const [wordpressStatus, setWordpressStatus] = useState<ConnectionStatus>('untested');
  const [mailchimpStatus, setMailchimpStatus] = useState<ConnectionStatus>('untested');

  return (
    <div className="page">
      <h1>Integrations</h1>
      <Card className="integrations-overview" data-testid="integrations-overview">
        <CardHeader title="Overview" />
        <p className="muted">
          Records of events, professionals and run clubs come from the content website; contacts can be added to audiences of the
          email-marketing service.
        </p>
        <div className="overview-rows">
          <div>
            <strong>Content website (WordPress)</strong>
            <span className="muted">{overview.wordpress.url ?? 'Not configured'}</span>
            <ConnectionBadge status={wordpressStatus} testId="overview-wordpress-status" />
          </div>
          <div>
            <strong>Email marketing (Mailchimp)</strong>
            <span className="muted">{overview.mailchimp.configured ? 'API key set' : 'Not configured'}</span>
            <ConnectionBadge status={mailchimpStatus} testId="overview-mailchimp-status" />
          </div>
        </div>
      </Card>
      {/* Both tabs stay mounted so a test result survives switching tabs. */}
      <Tabs
        label="Integrations"
        value={tab}
        onValueChange={(value) => setParams(value === 'website' ? {} : { tab: value }, { replace: true, preventScrollReset: true })}
        keepMounted
        items={[
          {
            value: 'website',
            label: TABS.website,
            content: <WordPressTab overview={overview} status={wordpressStatus} onStatus={setWordpressStatus} />,
          },
          {
            value: 'email',
            label: TABS.email,
            content: <MailchimpTab overview={overview} status={mailchimpStatus} onStatus={setMailchimpStatus} />,
          },
        ]}
      />
    </div>
  );
}

import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { RECORD_TYPE_INFO, type ContactOwnerType } from '@shared/record-types.js';
import { HistoryPanel } from '../history/history-panel.js';
import { ContactsTab, FilesCard, PaymentsCard, type Attachments } from '../attachments/index.js';
import { DateText, DateTimeText, InfoList, multilineText, RecentActivity, SideCard, type InfoItem } from './detail.js';

const TABS = ['details', 'contacts', 'marketing', 'history'] as const;

export interface SyncedDetailProps {
  ownerType: ContactOwnerType;
  ownerId: number;
  attachments: Attachments;
  details: ReactNode;
  lastNewsletterInclusion: string | null;
  newsletterInclusionNotes: string | null;
  /** Quick Stats' status value (e.g. 'Featured', a Published badge). */
  status: ReactNode;
  infoTitle: string;
  wordpressId: number | null;
  wordpressLastSync: string | null;
  /** The info card's buttons (content-site page, website, admin edit). */
  infoButtons: ReactNode;
  createdAt: string;
  updatedAt: string;
}

/**
 * The detail layout of the records synced from the content site (events, professionals, run clubs): tabs
 * Details, Contacts (count) and Marketing, payments and files below, and the Quick Stats / Info / Recent Activity
 * sidebar. `?tab=contacts` opens a tab directly, e.g. when coming back from adding a contact.
 */
export function SyncedDetail(props: SyncedDetailProps) {
  const [search] = useSearchParams();
  const requested = search.get('tab');
  const initialTab = TABS.find((tab) => tab === requested) ?? 'details';
  const { attachments } = props;
  const stats: InfoItem[] = [
    { label: 'Status', value: props.status },
    { label: 'Contacts', value: String(attachments.contacts.length) },
    { label: 'Payments', value: String(attachments.payments.length) },
    { label: 'Files', value: String(attachments.files.length) },
  ];
  return (
    <div className="detail-layout">
      <div className="records-main">
        <Tabs.Root defaultValue={initialTab} className="records-tabs">
          <Tabs.List className="tabs-list" aria-label="Sections">
            <Tabs.Trigger value="details" className="tabs-trigger">
              Details
            </Tabs.Trigger>
            <Tabs.Trigger value="contacts" className="tabs-trigger">
              Contacts ({attachments.contacts.length})
            </Tabs.Trigger>
            <Tabs.Trigger value="marketing" className="tabs-trigger">
              Marketing
            </Tabs.Trigger>
            <Tabs.Trigger value="history" className="tabs-trigger">
              History
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="details" className="records-tab">
            {props.details}
          </Tabs.Content>
          <Tabs.Content value="contacts" className="records-tab">
            <ContactsTab ownerType={props.ownerType} ownerId={props.ownerId} contacts={attachments.contacts} />
          </Tabs.Content>
          <Tabs.Content value="marketing" className="records-tab card">
            <h2 className="card-title">Newsletter</h2>
            <InfoList
              items={[
                { label: 'Last newsletter inclusion', value: <DateText value={props.lastNewsletterInclusion} empty="Never included" /> },
                { label: 'Newsletter notes', value: multilineText(props.newsletterInclusionNotes) },
              ]}
            />
            <p className="muted records-note">
              The email-marketing (newsletter) integration for this screen is not yet done: inclusions are recorded here by hand.
            </p>
          </Tabs.Content>
          <Tabs.Content value="history" className="records-tab">
            <HistoryPanel
              apiPath={`${RECORD_TYPE_INFO[props.ownerType].apiPath}/${props.ownerId}`}
              noun={RECORD_TYPE_INFO[props.ownerType].noun}
            />
          </Tabs.Content>
        </Tabs.Root>
        <PaymentsCard
          ownerType={props.ownerType}
          ownerId={props.ownerId}
          payments={attachments.payments}
          total={attachments.paymentsTotal}
        />
        <FilesCard ownerType={props.ownerType} ownerId={props.ownerId} files={attachments.files} />
      </div>
      <aside className="sidebar" aria-label="Summary">
        <SideCard title="Quick Stats">
          <InfoList items={stats} />
        </SideCard>
        <SideCard title={props.infoTitle}>
          <InfoList
            items={[
              {
                label: 'WordPress ID',
                value: props.wordpressId !== null ? String(props.wordpressId) : <span className="muted">Not synced</span>,
              },
              { label: 'Last sync', value: <DateTimeText value={props.wordpressLastSync} empty="Never synced" /> },
            ]}
          />
          <div className="records-button-stack">{props.infoButtons}</div>
        </SideCard>
        <RecentActivity createdAt={props.createdAt} updatedAt={props.updatedAt} />
      </aside>
    </div>
  );
}

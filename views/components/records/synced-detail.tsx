import type { ReactNode } from 'react';
import type { ContactOwnerType } from '@shared/record-types.js';
import type { Audit } from '@shared/schemas/fields.js';
import type { Synced } from '@shared/schemas/records/fields.js';
import { ContactsTab, type Attachments } from '../attachments/index.js';
import { countedLabel, DetailLayout, type DetailTab } from './detail-tabs.js';
import { DateText, DateTimeText, InfoList, multilineText, RecentActivity, SideCard, type InfoItem } from './detail.js';

/** What every synced record keeps beside its own fields, and its sidebar and Marketing tab show. */
type SyncedRecordFields = Pick<Audit, 'id' | 'createdAt' | 'updatedAt'> &
  Synced & {
    lastNewsletterInclusion: string | null;
    newsletterInclusionNotes: string | null;
  };

export interface SyncedDetailProps {
  ownerType: ContactOwnerType;
  record: SyncedRecordFields;
  /** Its WordPress post id (each type names the column its own way). */
  wordpressId: number | null;
  attachments: Attachments;
  details: ReactNode;
  /** Quick Stats' status value (e.g. 'Featured', a Published badge). */
  status: ReactNode;
  infoTitle: string;
  /** The info card's buttons (content-site page, website, admin edit). */
  infoButtons: ReactNode;
}

/**
 * The detail layout of the records synced from the content site (events, professionals, run clubs): tabs
 * Details, Contacts (count), Marketing, Payments (count), Files (count) and History, and the Quick Stats / Info /
 * Recent Activity sidebar. `?tab=contacts` opens a tab directly, e.g. when coming back from adding a contact.
 */
export function SyncedDetail(props: SyncedDetailProps) {
  const { attachments, record } = props;
  const stats: InfoItem[] = [
    { label: 'Status', value: props.status },
    { label: 'Contacts', value: String(attachments.contacts.length) },
    { label: 'Payments', value: String(attachments.payments.length) },
    { label: 'Files', value: String(attachments.files.length) },
  ];
  const tabs: DetailTab[] = [
    {
      value: 'contacts',
      label: countedLabel('Contacts', attachments.contacts.length),
      intents: ['delete-contact'],
      content: <ContactsTab ownerType={props.ownerType} ownerId={record.id} contacts={attachments.contacts} />,
    },
    {
      value: 'marketing',
      label: 'Marketing',
      content: (
        <div className="card">
          <h2 className="card-title">Newsletter</h2>
          <InfoList
            items={[
              { label: 'Last newsletter inclusion', value: <DateText value={record.lastNewsletterInclusion} empty="Never included" /> },
              { label: 'Newsletter notes', value: multilineText(record.newsletterInclusionNotes) },
            ]}
          />
          <p className="muted records-note">
            The email-marketing (newsletter) integration for this screen is not yet done: inclusions are recorded here by hand.
          </p>
        </div>
      ),
    },
  ];
  return (
    <DetailLayout
      ownerType={props.ownerType}
      ownerId={record.id}
      attachments={attachments}
      details={props.details}
      tabs={tabs}
      sidebar={
        <>
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
                { label: 'Last sync', value: <DateTimeText value={record.wordpressLastSync} empty="Never synced" /> },
              ]}
            />
            <div className="records-button-stack">{props.infoButtons}</div>
          </SideCard>
          <RecentActivity createdAt={record.createdAt} updatedAt={record.updatedAt} />
        </>
      }
    />
  );
}

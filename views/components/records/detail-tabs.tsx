import type { ReactNode } from 'react';
import { useActionData, useSearchParams } from 'react-router';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { FilesCard, PaymentsCard, type Attachments } from '../attachments/index.js';
import { HistoryPanel } from '../history/history-panel.js';
import { ActivityTimeline } from '../activity/activity-timeline.js';
import { NotesAndTasks } from '../notes/activity-tabs.js';
import { Tabs } from '../ui/tabs.js';

export interface DetailTab {
  /** Its `?tab=` value, so a link can open it directly (e.g. coming back from adding a contact). */
  value: string;
  /** The tab's text, with its count where it has one: 'Payments (2)'. */
  label: string;
  content: ReactNode;
  /** The posted intents whose answer this tab shows (a delete's question asked without JavaScript). */
  intents?: readonly string[];
}

/** 'Payments (2)': a tab's text with the number of rows behind it. */
export const countedLabel = (label: string, count: number) => `${label} (${count})`;

/**
 * The tabs of a detail page, from a list: a page (or another area, e.g. a History tab) adds a tab by adding an
 * entry. The first tab opens unless `?tab=` names another, or a post answered with a question for one tab's row
 * (a delete asked before or without JavaScript), which opens that tab so the question shows.
 */
function DetailTabs({ tabs }: { tabs: readonly DetailTab[] }) {
  const [search] = useSearchParams();
  const answered = useActionData<{ intent?: unknown } | undefined>();
  const postedIntent = typeof answered?.intent === 'string' ? answered.intent : null;
  const requested = search.get('tab');
  const initial =
    (postedIntent && tabs.find((tab) => tab.intents?.includes(postedIntent))?.value) ??
    tabs.find((tab) => tab.value === requested)?.value ??
    tabs[0]?.value;
  return <Tabs items={tabs} label="Sections" defaultValue={initial} className="records-tabs" panelClassName="records-tab" />;
}

/** The Payments (n), Files (n) and History tabs every detail page ends with. */
function trailingTabs(ownerType: RecordType, ownerId: number, attachments: Attachments): DetailTab[] {
  return [
    {
      value: 'payments',
      label: countedLabel('Payments', attachments.payments.length),
      intents: ['delete-payment'],
      content: <PaymentsCard ownerType={ownerType} ownerId={ownerId} payments={attachments.payments} total={attachments.paymentsTotal} />,
    },
    {
      value: 'files',
      label: countedLabel('Files', attachments.files.length),
      intents: ['delete-file'],
      content: <FilesCard ownerType={ownerType} ownerId={ownerId} files={attachments.files} />,
    },
    {
      value: 'history',
      label: 'History',
      content: (
        <HistoryPanel
          apiPath={`${RECORD_TYPE_INFO[ownerType].apiPath}/${ownerId}`}
          noun={RECORD_TYPE_INFO[ownerType].noun}
          ownerType={ownerType}
        />
      ),
    },
  ];
}

/**
 * The body of every record's detail page, below its header: the Details tab, the record's own further tabs, then
 * Payments, Files and History, beside the Summary sidebar.
 */
export function DetailLayout({
  ownerType,
  ownerId,
  attachments,
  details,
  tabs = [],
  sidebar,
}: {
  ownerType: RecordType;
  ownerId: number;
  attachments: Attachments;
  /** The Details tab, which opens by default. */
  details: ReactNode;
  /** Tabs between Details and Payments. */
  tabs?: readonly DetailTab[];
  sidebar: ReactNode;
}) {
  return (
    <div className="detail-layout">
      <div className="records-main">
        <DetailTabs
          tabs={[
            { value: 'details', label: 'Details', content: details },
            ...tabs,
            ...trailingTabs(ownerType, ownerId, attachments),
            // Beside the spec's tabs, after them: notes and tasks (issue 33).
            { value: 'notes', label: 'Notes', content: <NotesAndTasks /> },
            // One timeline of everything above, newest first (issue 33 point 4; docs/decisions/0106).
            {
              value: 'activity',
              label: 'Activity',
              content: <ActivityTimeline apiPath={`${RECORD_TYPE_INFO[ownerType].apiPath}/${ownerId}`} />,
            },
          ]}
        />
      </div>
      <aside className="sidebar" aria-label="Summary">
        {sidebar}
      </aside>
    </div>
  );
}

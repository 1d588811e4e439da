import { useCanWrite } from '@views/hooks/use-session.js';
import type { ReactNode } from 'react';

export interface RecordCardProps {
  /** The detail page; the title is a real link stretched over the card, so the whole card opens it. */
  to: string;
  /** The edit page, behind the card's 'Edit' button. */
  editTo: string;
  title: string;
  badges?: ReactNode;
  children?: ReactNode;
  /** Buttons after 'Edit' (delete); they sit above the stretched link so they stay clickable. */
  actions?: ReactNode;
  testId?: string;
}

/**
 * A card of a record list. Its links are plain anchors: RecordListPage's list turns their clicks into client-side
 * navigations (useInAppLinkClicks), which keeps the server render of a page of cards cheap.
 */
export function RecordCard({ to, editTo, title, badges, children, actions, testId }: RecordCardProps) {
  const canWrite = useCanWrite();
  return (
    <article className="card record-card records-card" data-testid={testId}>
      <div className="records-card-head">
        <h2 className="records-card-title">
          <a href={to} className="records-card-link">
            {title}
          </a>
        </h2>
        {badges && <div className="records-card-badges">{badges}</div>}
      </div>
      {children && <div className="records-card-body">{children}</div>}
      <div className="records-card-actions">
        {canWrite && (
          <a href={editTo} className="btn btn-outline btn-sm" aria-label={`Edit ${title}`}>
            Edit
          </a>
        )}
        {actions}
      </div>
    </article>
  );
}

/** One "label: value" line of a card; nothing when the value is empty. */
export function CardLine({ label, children }: { label?: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <p className="records-card-line">
      {label && <span className="muted">{label}: </span>}
      {children}
    </p>
  );
}

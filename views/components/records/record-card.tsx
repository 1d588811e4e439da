import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface RecordCardProps {
  /** The detail page; the title is a real link stretched over the card, so the whole card opens it. */
  to: string;
  title: string;
  badges?: ReactNode;
  children?: ReactNode;
  /** Edit and delete buttons; they sit above the stretched link so they stay clickable. */
  actions?: ReactNode;
  testId?: string;
}

export function RecordCard({ to, title, badges, children, actions, testId }: RecordCardProps) {
  return (
    <article className="card record-card records-card" data-testid={testId}>
      <div className="records-card-head">
        <h2 className="records-card-title">
          <Link to={to} className="records-card-link">
            {title}
          </Link>
        </h2>
        {badges && <div className="records-card-badges">{badges}</div>}
      </div>
      {children && <div className="records-card-body">{children}</div>}
      {actions && <div className="records-card-actions">{actions}</div>}
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

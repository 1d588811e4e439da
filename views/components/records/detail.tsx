import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useFormat } from '@views/hooks/use-format.js';
import { ButtonLink } from '../ui/button-link.js';
import { Card, CardHeader } from '../ui/primitives.js';
import { safeHref } from './links.js';

/** Title row of a detail or form page: a back link, the heading, badges and the page's buttons. */
export function PageHeader({
  backTo,
  backLabel,
  title,
  badges,
  actions,
}: {
  backTo: string;
  backLabel: string;
  title: string;
  badges?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="records-page-header">
      <Link to={backTo} className="records-back">
        <span aria-hidden="true">← </span>
        {backLabel}
      </Link>
      <div className="page-header">
        <div className="records-title-row">
          <h1>{title}</h1>
          {badges && <div className="records-card-badges">{badges}</div>}
        </div>
        {actions && <div className="card-actions">{actions}</div>}
      </div>
    </div>
  );
}

/** The not-found view of a detail or edit page (spec point 8), with a way back. */
export function NotFoundView({
  title,
  message,
  backTo,
  backLabel,
}: {
  title: string;
  message?: string;
  backTo: string;
  backLabel: string;
}) {
  return (
    <div className="page not-found records-not-found">
      <h1>{title}</h1>
      {message && <p className="muted">{message}</p>}
      <ButtonLink to={backTo} variant="outline">
        {backLabel}
      </ButtonLink>
    </div>
  );
}

/** "The brand you are trying to edit does not exist." */
export const editMissingText = (noun: string) => `The ${noun} you are trying to edit does not exist.`;

export interface InfoItem {
  label: string;
  value: ReactNode;
}

const isEmpty = (value: ReactNode) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * A definition list of a record's fields. The empty ones are not a row each (half a page of 'Not set'): they are
 * named together in one quiet line under the list, so it is still plain which fields have no value.
 */
export function InfoList({ items }: { items: readonly InfoItem[] }) {
  const filled = items.filter((item) => !isEmpty(item.value));
  const empty = items.filter((item) => isEmpty(item.value));
  return (
    <>
      {filled.length > 0 && (
        <dl className="dl records-dl">
          {filled.map((item) => (
            <div key={item.label} className="records-dl-row">
              <dt>{item.label}</dt>
              <dd>{item.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {empty.length > 0 && (
        <p className="records-empty-fields" data-testid="empty-fields">
          <span className="records-empty-fields-title">Empty fields:</span> {empty.map((item) => item.label).join(', ')}
        </p>
      )}
    </>
  );
}

/** A link to another site, opened in a new tab; plain text when the stored value is not a usable URL. */
export function ExternalLink({ href, children }: { href: string | null | undefined; children?: ReactNode }) {
  const safe = safeHref(href);
  if (!href) return null;
  if (!safe) return <span>{href}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      {children ?? href}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/** A button-styled external link; nothing when there is no usable URL. */
export function ExternalButton({ href, children }: { href: string | null | undefined; children: ReactNode }) {
  const safe = safeHref(href);
  if (!safe) return null;
  return (
    <a className="btn btn-outline btn-sm records-external" href={safe} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

export function SideCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="records-side-card">
      <CardHeader title={title} level={2} />
      {children}
    </Card>
  );
}

/** A detail page's titled section of fields (Brand Information, Social Media…). */
export function InfoCard({ title, items }: { title: string; items: readonly InfoItem[] }) {
  return (
    <Card className="records-section">
      <CardHeader title={title} />
      <InfoList items={items} />
    </Card>
  );
}

/** The sidebar's Quick Info card: a few facts, and the Visit Site button when the type has a website to visit. */
export function QuickInfo({ items, website }: { items: readonly InfoItem[]; website?: string | null }) {
  return (
    <SideCard title="Quick Info">
      <InfoList items={items} />
      {website !== undefined && (
        <div className="records-button-stack">
          <ExternalButton href={website}>Visit Site</ExternalButton>
        </div>
      )}
    </SideCard>
  );
}

/** Comma separated list values, or nothing. */
export const listText = (values: readonly string[] | null | undefined) => (values && values.length ? values.join(', ') : null);

/** Free text as written (line breaks kept), or nothing when empty. */
export const multilineText = (text: string | null | undefined) => (text ? <span className="records-pre">{text}</span> : null);

/** Recent Activity: the created time, and the updated time when it differs (spec point 2). */
export function RecentActivity({ createdAt, updatedAt }: { createdAt: string; updatedAt: string }) {
  const format = useFormat();
  return (
    <SideCard title="Recent Activity">
      <InfoList
        items={[
          { label: 'Created', value: <time dateTime={createdAt}>{format.dateTime(createdAt)}</time> },
          ...(updatedAt && updatedAt !== createdAt
            ? [{ label: 'Updated', value: <time dateTime={updatedAt}>{format.dateTime(updatedAt)}</time> }]
            : []),
        ]}
      />
    </SideCard>
  );
}

/** A date-only value in the visitor's locale, with a machine-readable form for assistive tech. */
export function DateText({ value, empty }: { value: string | null | undefined; empty?: string }) {
  const format = useFormat();
  if (!value) return empty ? <span className="muted">{empty}</span> : null;
  return <time dateTime={value}>{format.date(value)}</time>;
}

export function DateTimeText({ value, empty }: { value: string | null | undefined; empty?: string }) {
  const format = useFormat();
  if (!value) return empty ? <span className="muted">{empty}</span> : null;
  return <time dateTime={value}>{format.dateTime(value)}</time>;
}

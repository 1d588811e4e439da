import { INFLUENCER_TYPE_LABELS, labelOf, SUBSCRIPTION_STATUS_LABELS } from '@shared/labels.js';
import { Badge } from '../ui/primitives.js';

/** Events list badge (spec point 4): featured races read 'Featured', the rest 'Active'. */
export function EventStatusBadge({ featured }: { featured: boolean }) {
  return featured ? <Badge tone="warning">Featured</Badge> : <Badge tone="success">Active</Badge>;
}

/**
 * A professional is Published once it has a wordpress id, otherwise Draft; Unpublished when the last sync found
 * its post no longer published on the website (it keeps its wordpress id). The website state is an outlined
 * badge with a dot, so it never reads like the filled subscription pill beside it.
 */
export function PublishBadge({ wordpressId, unpublishedAt }: { wordpressId: number | null; unpublishedAt: string | null }) {
  const published = wordpressId !== null;
  if (published && unpublishedAt !== null) {
    return (
      <Badge tone="warning" className="badge-sync" title="No longer published on the content website">
        <span className="badge-dot" aria-hidden="true" />
        Unpublished
      </Badge>
    );
  }
  return (
    <Badge tone={published ? 'info' : 'muted'} className="badge-sync" title="Website status">
      <span className="badge-dot" aria-hidden="true" />
      {published ? 'Published' : 'Draft'}
    </Badge>
  );
}

const SUBSCRIPTION_TONES = { active: 'success', expired: 'danger', pending: 'warning' } as const;

export function SubscriptionBadge({ status }: { status: string }) {
  const tone = SUBSCRIPTION_TONES[status as keyof typeof SUBSCRIPTION_TONES] ?? 'default';
  return (
    <Badge tone={tone} title="Subscription status">
      {labelOf(SUBSCRIPTION_STATUS_LABELS, status)}
    </Badge>
  );
}

export function InfluencerTypeBadge({ type }: { type: string }) {
  return (
    <Badge tone={type === 'influencer' ? 'default' : 'info'} className="badge-nowrap">
      {labelOf(INFLUENCER_TYPE_LABELS, type)}
    </Badge>
  );
}

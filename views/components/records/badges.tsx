import { Badge } from '../ui/primitives.js';

/** Events list badge (spec point 4): featured races read 'Featured', the rest 'Active'. */
export function EventStatusBadge({ featured }: { featured: boolean }) {
  return featured ? <Badge tone="warning">Featured</Badge> : <Badge tone="success">Active</Badge>;
}

/** A professional is Published once it has a wordpress id, otherwise Draft. */
export function PublishBadge({ wordpressId }: { wordpressId: number | null }) {
  return wordpressId !== null ? <Badge tone="success">Published</Badge> : <Badge tone="muted">Draft</Badge>;
}

const SUBSCRIPTION_TONES = { active: 'success', expired: 'danger', pending: 'warning' } as const;

export function SubscriptionBadge({ status }: { status: string }) {
  const tone = SUBSCRIPTION_TONES[status as keyof typeof SUBSCRIPTION_TONES] ?? 'default';
  return (
    <Badge tone={tone} title="Subscription status">
      {status.charAt(0).toUpperCase() + status.slice(1)}
    </Badge>
  );
}

export const INFLUENCER_TYPE_LABELS: Record<string, string> = { pro: 'Pro', both: 'Pro & Influencer', influencer: 'Influencer' };

export function influencerTypeLabel(type: string): string {
  return INFLUENCER_TYPE_LABELS[type] ?? INFLUENCER_TYPE_LABELS.influencer!;
}

export function InfluencerTypeBadge({ type }: { type: string }) {
  return <Badge tone={type === 'influencer' ? 'default' : 'info'}>{influencerTypeLabel(type)}</Badge>;
}

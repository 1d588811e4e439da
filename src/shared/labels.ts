import { INVOICE_STATUSES } from './choices.js';
import { INFLUENCER_TYPES } from './choices.js';
import { PROFESSION_TYPES, SUBSCRIPTION_STATUSES } from './choices.js';
import { CLUB_TYPES, RUN_TYPES, TRACK_TYPES } from './choices.js';
import { LOCATION_STATES } from './choices.js';
import { EVENT_FILTERS, RUN_CLUB_TYPE_FILTERS } from './list-options.js';
import { JOB_STATES, JOB_TYPES } from './schemas/jobs.js';

/**
 * What a stored value reads on screen. One map per enum, typed by the enum, so a new value fails to compile
 * until it has a label; every screen (badges, detail rows, selects, filters, the dashboard) reads these.
 */
type Labels<T extends readonly string[]> = Readonly<Record<T[number], string>>;

export const PROFESSION_TYPE_LABELS: Labels<typeof PROFESSION_TYPES> = {
  coach: 'Coach',
  physiotherapist: 'Physiotherapist',
  nutritionist: 'Nutritionist',
  podiatrist: 'Podiatrist',
  'massage-therapist': 'Massage therapist',
  trainer: 'Trainer',
  other: 'Other',
};

/** States are shown as their abbreviations. */
export const LOCATION_STATE_LABELS = Object.fromEntries(LOCATION_STATES.map((state) => [state, state])) as Labels<typeof LOCATION_STATES>;

export const SUBSCRIPTION_STATUS_LABELS: Labels<typeof SUBSCRIPTION_STATUSES> = {
  active: 'Active',
  expired: 'Expired',
  pending: 'Pending',
};

export const CLUB_TYPE_LABELS: Labels<typeof CLUB_TYPES> = {
  trail: 'Trail',
  road: 'Road',
  track: 'Track',
  mixed: 'Mixed',
  social: 'Social',
  other: 'Other',
};

export const RUN_TYPE_LABELS: Labels<typeof RUN_TYPES> = {
  '5k': '5K',
  '10k': '10K',
  'half-marathon': 'Half marathon',
  marathon: 'Marathon',
  ultra: 'Ultra',
  relay: 'Relay',
  'fun-run': 'Fun run',
  'cross-country': 'Cross country',
};

export const TRACK_TYPE_LABELS: Labels<typeof TRACK_TYPES> = {
  road: 'Road',
  trail: 'Trail',
  track: 'Track',
  park: 'Park',
  mountain: 'Mountain',
  beach: 'Beach',
};

export const RUN_CLUB_TYPE_FILTER_LABELS: Labels<typeof RUN_CLUB_TYPE_FILTERS> = { all: 'All types', ...CLUB_TYPE_LABELS };

export const EVENT_FILTER_LABELS: Labels<typeof EVENT_FILTERS> = { all: 'All events', featured: 'Featured', regular: 'Regular' };

/** The spec's influencer type badge texts. */
export const INFLUENCER_TYPE_LABELS: Labels<typeof INFLUENCER_TYPES> = { influencer: 'Influencer', pro: 'Pro', both: 'Pro & Influencer' };

export const INVOICE_STATUS_LABELS: Labels<typeof INVOICE_STATUSES> = {
  pending: 'Pending',
  paid: 'Paid',
  overdue: 'Overdue',
  cancelled: 'Cancelled',
};

/**
 * Free-text values the content site and the forms store (payment status, run and track types, payment types):
 * the known ones have a label, anything else reads as its words ('half-marathon' → 'Half marathon', '10k' → '10K').
 */
const FREE_TEXT_LABELS: Readonly<Record<string, string>> = {
  none: 'None',
  current: 'Current',
  road: 'Road',
  trail: 'Trail',
  track: 'Track',
  marathon: 'Marathon',
  'half-marathon': 'Half marathon',
  ultra: 'Ultra',
  advertising: 'Advertising',
  sponsorship: 'Sponsorship',
  membership: 'Membership',
};

export function valueLabel(value: string): string {
  const known = FREE_TEXT_LABELS[value.toLowerCase()];
  if (known) return known;
  const distance = /^(\d+(?:\.\d+)?)\s*k$/i.exec(value);
  if (distance) return `${distance[1]}K`;
  const words = value.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const JOB_TYPE_LABELS: Labels<typeof JOB_TYPES> = {
  import: 'Import',
  sync: 'Sync',
  newsletter: 'Newsletter push',
  backup: 'Backup',
  'general-import': 'General import',
};

export const JOB_STATE_LABELS: Labels<typeof JOB_STATES> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The label of an enum value; a value the map does not know (an older row) reads as its words. */
export function labelOf<T extends string>(labels: Readonly<Record<T, string>>, value: string): string {
  return (labels as Readonly<Record<string, string>>)[value] ?? valueLabel(value);
}

/**
 * A type's label, with the content website's own words when the sync stored it as `other` because it is not one
 * of ours: 'Other (Osteopath)'.
 */
export function typeLabel<T extends string>(
  labels: Readonly<Record<T, string>>,
  value: string,
  siteWords: string | readonly string[] | null,
): string {
  const label = labelOf(labels, value);
  const words = (typeof siteWords === 'string' ? [siteWords] : (siteWords ?? [])).filter((word) => word !== '');
  return value === 'other' && words.length ? `${label} (${words.join(', ')})` : label;
}

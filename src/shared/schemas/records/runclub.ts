import * as z from 'zod';
import type { Audit } from '../fields.js';
import {
  enumList,
  flag,
  location,
  MAX_TEXT_LENGTH,
  optionalDate,
  optionalText,
  optionalUrl,
  requiredName,
  textList,
  textWithDefault,
  wholeNumber,
  type StoredValues,
  type Synced,
} from './fields.js';
import { CLUB_TYPES } from '@shared/choices.js';

export { CLUB_TYPES } from '@shared/choices.js';

const UNSIGNED_INT_MAX = 4_294_967_295;

export const RunClubInputSchema = z
  .object({
    clubName: requiredName('Club name is required'),
    ...location,
    clubType: enumList(CLUB_TYPES, 'Club type'),
    foundedYear: wholeNumber('Founded year', 1800, 2100),
    membershipCount: wholeNumber('Membership count', 0, UNSIGNED_INT_MAX),
    meetingTimes: textList(),
    cost: optionalText(255),
    averageAttendance: wholeNumber('Average attendance', 0, UNSIGNED_INT_MAX),
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    facebookUrl: optionalUrl(),
    founderInstagramUrl: optionalUrl(),
    clubEmail: optionalText(320),
    isPayingMember: flag(),
    paymentStatus: textWithDefault(20, 'none'),
    extras: optionalText(MAX_TEXT_LENGTH),
    footnote: optionalText(MAX_TEXT_LENGTH),
    socialTitle: optionalText(255),
    lastNewsletterInclusion: optionalDate(),
    newsletterInclusionNotes: optionalText(MAX_TEXT_LENGTH),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();

export interface RunClubSummary extends Audit, Synced, StoredValues<typeof RunClubInputSchema> {
  wordpressClubId: number | null;
  /** Set by the sync only: the content website's club types that are not ours (stored as `other`). */
  clubTypeOther: string[];
  /** The sum of the club's payments. */
  totalPayments: string;
}

export interface RunClubSchedule {
  id: number;
  clubId: number;
  title: string | null;
  dayOfWeek: string | null;
  specificDate: string | null;
  startTime: string | null;
  endTime: string | null;
  isRecurring: boolean;
  description: string | null;
  runStyle: string | null;
  cost: string | null;
  locationAddress: string | null;
  locationLat: string | null;
  locationLng: string | null;
  createdAt: string;
}

/** GET /api/runclubs/:id */
export interface RunClub extends RunClubSummary {
  schedules: RunClubSchedule[];
}

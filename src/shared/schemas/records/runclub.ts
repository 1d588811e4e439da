import { RUN_CLUB } from '@shared/records/runclub.js';
import { zodSchemaOf } from '@shared/records/zod.js';
import type { Audit } from '../fields.js';
import { type StoredValues, type Synced } from './fields.js';

export { CLUB_TYPES } from '@shared/choices.js';

/** The form fields, from the definition (src/shared/records/runclub.ts). */
export const RunClubInputSchema = zodSchemaOf(RUN_CLUB);

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

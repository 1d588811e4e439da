import type { RecordType, SyncKind } from '../record-types.js';
import type { SyncRunView } from './integrations.js';
import type { Stats } from './records.js';

/** How many days ahead the dashboard's upcoming events reach. */
export const UPCOMING_DAYS = 60;

/** The dashboard's whole answer: one read, so the page needs one request (GET /api/dashboard). */
export interface Dashboard {
  /** The visitor's calendar day the upcoming window starts from. */
  today: string;
  stats: Stats;
  upcomingEvents: {
    /** The last day counted as upcoming (today + 60 days). */
    until: string;
    total: number;
    /** The first event after `until`, or null when there is none. */
    next: { id: number; eventName: string; eventStartDate: string } | null;
    items: Array<{
      id: number;
      eventName: string;
      eventStartDate: string;
      eventEndDate: string | null;
      locationState: string | null;
      featuredRace: boolean;
    }>;
  };
  awaitingPayment: {
    count: number;
    /** Exact sum of their amounts, e.g. "1250.00". */
    total: string;
    /** Of those, the ones past due today: marked overdue, or pending with a payment date before today. */
    overdue: { count: number; total: string };
    /** The oldest first. */
    oldest: Array<{
      id: number;
      description: string;
      amount: string;
      paymentDate: string | null;
      invoiceStatus: string;
      owner: { type: RecordType; id: number; name: string | null };
    }>;
  };
  /** Payments of events and brands per month, the last 12 months oldest first (months without any included). */
  advertisingSpend: Array<{ month: string; total: string }>;
  lastSyncs: Record<SyncKind, SyncRunView | null>;
  recentlyChanged: Array<{ type: RecordType; id: number; name: string; updatedAt: string }>;
}

/** GET /api/calendar/events?month=YYYY-MM: the events of a month's calendar grid (the weeks that show it). */
export interface EventCalendar {
  month: string;
  /** The visitor's calendar day, marked on the grid. */
  today: string;
  events: Array<{
    id: number;
    eventName: string;
    eventStartDate: string;
    eventEndDate: string | null;
    featuredRace: boolean;
    locationState: string | null;
  }>;
  /** More events fall in these weeks than one page shows (the first ones by start date are given). */
  truncated: boolean;
}

import { eventCalendar } from '@services/calendar/service.js';
import { getDashboard } from '@services/dashboard/service.js';
import { getStats } from '@services/stats/service.js';
import { defineRead, type ReadRoute } from '../reads.js';

export const coreReads: ReadRoute[] = [
  defineRead('/api/stats', ({ ctx }) => getStats(ctx)),
  defineRead('/api/dashboard', ({ ctx, timeZone }) => getDashboard(ctx, timeZone)),
  defineRead('/api/calendar/events', ({ ctx, query, timeZone }) => eventCalendar(ctx, query.get('month'), timeZone)),
];

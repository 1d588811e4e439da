import { getDashboard } from '@services/dashboard/service.js';
import { getStats } from '@services/stats/service.js';
import { defineRead, type ReadRoute } from '../reads.js';

export const coreReads: ReadRoute[] = [
  defineRead('/api/stats', ({ ctx }) => getStats(ctx)),
  defineRead('/api/dashboard', ({ ctx, timeZone }) => getDashboard(ctx, timeZone)),
];

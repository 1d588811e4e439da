import { getStats } from '@services/stats/service.js';
import { defineRead, type ReadRoute } from '../reads.js';

export const coreReads: ReadRoute[] = [defineRead('/api/stats', ({ ctx }) => getStats(ctx))];

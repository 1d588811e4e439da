import type { AppContext } from '../context.js';

export interface Stats {
  events: number;
  professionals: number;
  runClubs: number;
  brands: number;
  media: number;
  influencers: number;
}

const tables: Record<keyof Stats, string> = {
  events: 'events',
  professionals: 'professionals',
  runClubs: 'run_clubs',
  brands: 'brands',
  media: 'media',
  influencers: 'influencers',
};

export async function getStats(ctx: AppContext): Promise<Stats> {
  const entries = await Promise.all(
    Object.entries(tables).map(async ([key, table]) => {
      const row = (await ctx.db(table).count({ n: '*' }).first()) as { n: number | string } | undefined;
      return [key, Number(row?.n ?? 0)] as const;
    }),
  );
  return Object.fromEntries(entries) as unknown as Stats;
}

import type { AppContext } from '../src/services/context.js';

export async function seedDemoData(_ctx: AppContext): Promise<Record<string, number>> {
  return {};
}

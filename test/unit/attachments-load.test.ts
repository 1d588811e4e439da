import { describe, expect, it } from 'vitest';
import { loadAttachments } from '../../views/components/attachments/index.js';
import type { DataSource } from '../../views/data/source.js';

function fakeSource(answers: Record<string, unknown>) {
  const asked: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const ds: DataSource = {
    session: () => Promise.reject(new Error('not used')),
    async get<T>(path: string) {
      asked.push(path);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      if (!(path in answers)) throw new Error(`unexpected ${path}`);
      return answers[path] as T;
    },
  };
  return { ds, asked, maxInFlight: () => maxInFlight };
}

describe('loadAttachments', () => {
  it("reads an owner's contacts, payments and files in parallel", async () => {
    const source = fakeSource({
      '/api/contacts/brand/3': [{ id: 1 }],
      '/api/payments?entityType=brand&entityId=3': { items: [{ id: 2 }], total: 1, totalAmount: '0.30' },
      '/api/files/brand/3': [{ id: 3 }],
    });
    await expect(loadAttachments(source.ds, 'brand', 3)).resolves.toEqual({
      contacts: [{ id: 1 }],
      payments: [{ id: 2 }],
      paymentsTotal: '0.30',
      files: [{ id: 3 }],
    });
    expect(source.maxInFlight()).toBe(3);
  });

  it('asks for no contacts of an influencer', async () => {
    const source = fakeSource({
      '/api/payments?entityType=influencer&entityId=9': { items: [], total: 0, totalAmount: '0.00' },
      '/api/files/influencer/9': [],
    });
    await expect(loadAttachments(source.ds, 'influencer', 9)).resolves.toEqual({ contacts: [], payments: [], paymentsTotal: '0.00', files: [] });
    expect(source.asked.some((path) => path.startsWith('/api/contacts'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { loadAttachments } from '@views/components/attachments/index.js';
import type { Contact, Payment, PaymentList, StoredFile } from '@shared/schemas/attachments.js';
import { fakeDataSource } from '../helpers/fake-data-source.js';
import { gate, waitUntil } from '../helpers/wait.js';

/** Records which reads were made and how many are running; every answer waits until the test calls `answer()`. */
function fakeSource(answers: { contacts?: Contact[]; payments: PaymentList; files: StoredFile[] }) {
  const asked: string[] = [];
  let inFlight = 0;
  const answered = gate();
  const answer = async <T>(name: string, value: T | undefined): Promise<T> => {
    asked.push(name);
    inFlight++;
    await answered.promise;
    inFlight--;
    if (value === undefined) throw new Error(`unexpected ${name}`);
    return value;
  };
  const ds = fakeDataSource({
    contactsOf: (type, id) => answer(`contacts ${type} ${id}`, answers.contacts),
    paymentsOf: (type, id) => answer(`payments ${type} ${id}`, answers.payments),
    filesOf: (type, id) => answer(`files ${type} ${id}`, answers.files),
  });
  return { ds, asked, inFlight: () => inFlight, answer: answered.release };
}

describe('loadAttachments', () => {
  it("reads an owner's contacts, payments and files in parallel", async () => {
    const source = fakeSource({
      contacts: [{ id: 1 } as Contact],
      payments: { items: [{ id: 2 } as Payment], total: 1, totalAmount: '0.30' },
      files: [{ id: 3 } as StoredFile],
    });
    const loading = loadAttachments(source.ds, 'brand', 3);
    // No read is answered before all three have been asked for: read one after another, they would never be.
    try {
      await waitUntil(() => source.inFlight() === 3, 'all three reads to be running at once');
    } finally {
      source.answer();
    }
    await expect(loading).resolves.toEqual({
      contacts: [{ id: 1 }],
      payments: [{ id: 2 }],
      paymentsTotal: '0.30',
      files: [{ id: 3 }],
    });
    expect(source.asked.sort()).toEqual(['contacts brand 3', 'files brand 3', 'payments brand 3']);
  });

  it('asks for no contacts of an influencer', async () => {
    const source = fakeSource({
      payments: { items: [], total: 0, totalAmount: '0.00' },
      files: [],
    });
    source.answer();
    await expect(loadAttachments(source.ds, 'influencer', 9)).resolves.toEqual({
      contacts: [],
      payments: [],
      paymentsTotal: '0.00',
      files: [],
    });
    expect(source.asked.some((name) => name.startsWith('contacts'))).toBe(false);
  });
});

import type { Attachments, Contact } from '@shared/schemas/attachments.js';
import type { RecordDetail } from '@shared/schemas/records.js';
import type { ContactOwnerType, RecordType } from '@shared/record-types.js';
import type { AppContext } from '../context.js';
import { listContactsOf } from '../contacts/queries.js';
import { filesOf } from '../files/service.js';
import { paymentPage } from '../payments/service.js';
import { getRecord } from '../records/service.js';

/**
 * A record's detail page in one call: the record and its contacts, payments and files, read at once. The record's
 * own read is the owner check, so the attachment reads skip the check each makes on its own (`listContacts`, …):
 * a detail page costs one query per table it shows. A missing record is a 404, whatever the other reads found.
 */
export async function getRecordPage<K extends RecordType>(
  ctx: AppContext,
  kind: K,
  id: number,
): Promise<{ record: RecordDetail<K>; attachments: Attachments }> {
  const [record, contacts, payments, files] = await Promise.all([
    getRecord(ctx, kind, String(id)),
    kind === 'influencer' ? Promise.resolve<Contact[]>([]) : listContactsOf(ctx.db, kind as ContactOwnerType, id),
    paymentPage(ctx.db, { entityType: kind, entityId: id }),
    filesOf(ctx, kind, id),
  ]);
  return { record, attachments: { contacts, payments: payments.items, paymentsTotal: payments.totalAmount, files } };
}

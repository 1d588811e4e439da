import type { Knex } from 'knex';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';

export interface ContactForNewsletter {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  mailchimpTags: string[];
  entityType: string;
  entityId: number;
}

/** Contacts that have an email address, optionally of one owner type, in id order. */
export async function contactsWithEmail(db: Knex, ownerType?: string): Promise<ContactForNewsletter[]> {
  const query = db('contacts')
    .whereNotNull('email')
    .whereNot('email', '')
    .select('id', 'firstName', 'lastName', 'email', 'phone', 'mailchimpTags', 'entityType', 'entityId')
    .orderBy('id');
  if (ownerType) query.where('entityType', ownerType);
  return (await query).map((row: Record<string, unknown>) => decodeRow<ContactForNewsletter>(columnKinds.contacts, row));
}

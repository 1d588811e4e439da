import type { Knex } from 'knex';
import { decodeRows } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, type ContactOwnerType } from '@shared/record-types.js';
import { ContactsQuerySchema, type ContactsQuery, type DirectoryContact } from '@shared/schemas/contacts-directory.js';
import type { Page } from '@shared/schemas/records.js';
import type { AppContext } from '../context.js';
import { parseInput } from '../validate.js';

type RawRow = Record<string, unknown>;

/** The column that names each owner type's records. */
const OWNER_NAME: Record<ContactOwnerType, string> = {
  event: 'eventName',
  professional: 'businessName',
  runclub: 'clubName',
  brand: 'brandName',
  media: 'mediaName',
};

const SORT_COLUMNS: Record<ContactsQuery['sort'], string[]> = {
  newest: [],
  name: ['lastName', 'firstName'],
  email: ['email'],
  jobTitle: ['jobTitle'],
  updatedAt: ['updatedAt'],
};

/** The search and filters, on `contacts as c`. Search is a case-insensitive substring of name, email, phone, job title or tags. */
function filtered(db: Knex, query: ContactsQuery): Knex.QueryBuilder {
  const builder = db('contacts as c');
  if (query.ownerType) builder.where('c.entityType', query.ownerType);
  if (query.primary !== undefined) builder.where('c.isPrimary', query.primary);
  // Tags are stored as a JSON list: the quoted tag matches exactly one element.
  if (query.tag) builder.where('c.mailchimpTags', 'like', `%${escapeLike(JSON.stringify(query.tag))}%`);
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    builder.where((where) => {
      for (const column of ['firstName', 'lastName', 'email', 'phone', 'jobTitle', 'mailchimpTags']) {
        where.orWhereRaw("LOWER(??) LIKE ? ESCAPE '!'", [`c.${column}`, pattern]);
      }
      where.orWhereRaw("LOWER(CONCAT(??, ' ', ??)) LIKE ? ESCAPE '!'", ['c.firstName', 'c.lastName', pattern]);
    });
  }
  return builder;
}

const escapeLike = (value: string) => value.replace(/[!%_]/g, (c) => `!${c}`);

/** GET /api/contacts: one page of the directory with the total, each contact naming its owner. */
export async function listDirectory(ctx: AppContext, input: Record<string, unknown>): Promise<Page<DirectoryContact>> {
  const query = parseInput(ContactsQuerySchema, input);
  const { db } = ctx;
  const counted = (await filtered(db, query).count({ n: '*' }).first()) as { n: number | string } | undefined;
  const page = filtered(db, query).select('c.*');
  for (const type of CONTACT_OWNER_TYPES) {
    const alias = `o_${type}`;
    page.leftJoin(`${RECORD_TYPE_INFO[type].table} as ${alias}`, function joinOwner() {
      this.on(`${alias}.id`, '=', 'c.entityId').andOn('c.entityType', '=', db.raw('?', [type]));
    });
    page.select(`${alias}.${OWNER_NAME[type]} as ownerName_${type}`);
  }
  for (const column of SORT_COLUMNS[query.sort]) page.orderBy(`c.${column}`, query.dir);
  page.orderBy('c.id', query.dir).limit(query.limit).offset(query.offset);
  const rows = (await page) as RawRow[];
  const contacts = decodeRows<DirectoryContact>(
    columnKinds.contacts,
    rows,
    CONTACT_OWNER_TYPES.map((type) => `ownerName_${type}`),
  );
  return {
    items: contacts.map((contact, i) => ({
      ...contact,
      owner: { type: contact.entityType, id: contact.entityId, name: String(rows[i]![`ownerName_${contact.entityType}`] ?? '') },
    })),
    total: Number(counted?.n ?? 0),
  };
}

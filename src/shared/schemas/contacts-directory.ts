import * as z from 'zod';
import { CONTACT_OWNER_TYPES, type ContactOwnerType } from '../record-types.js';
import type { Contact } from './attachments.js';
import { queryCursor } from './records.js';
import { CONTACT_SORTS, PAGE_SIZE, SORT_DIRECTIONS, type ContactSort } from '../list-options.js';

import { text } from './text.js';

/** GET /api/contacts: every contact of every owner, searched, filtered and sorted like the record lists. */

const SORT_KEYS = Object.keys(CONTACT_SORTS) as [ContactSort, ...ContactSort[]];

const word = <const T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` }).optional());
const whole = (name: string, min: number, max: number, fallback: number) =>
  text()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return Number(value);
    });

export const ContactsQuerySchema = z
  .object({
    q: text('Search text must be text')
      .max(200, 'Search text must be at most 200 characters')
      .optional()
      .transform((value) => (value ?? '').replace(/[\r\n]+/g, ' ').trim()),
    ownerType: word(CONTACT_OWNER_TYPES, 'ownerType'),
    tag: text('tag must be text').max(100, 'tag must be at most 100 characters').optional(),
    primary: word(['true', 'false'], 'primary').transform((value) => (value === undefined ? undefined : value === 'true')),
    sort: word(SORT_KEYS, 'sort').transform((value): ContactSort => value ?? 'newest'),
    dir: word(SORT_DIRECTIONS, 'dir'),
    limit: whole('limit', 1, 100, PAGE_SIZE),
    offset: whole('offset', 0, 100_000_000, 0),
    /** The page after (or before) the contact a cursor names, in place of `offset` (as the record lists). */
    after: queryCursor('after'),
    before: queryCursor('before'),
  })
  .transform((query) => ({ ...query, tag: query.tag?.trim() || undefined, dir: query.dir ?? CONTACT_SORTS[query.sort] }));
export type ContactsQuery = z.output<typeof ContactsQuerySchema>;

/** The record a contact belongs to, by name (the directory's rows and the contact pages name it). */
export interface ContactOwner {
  type: ContactOwnerType;
  id: number;
  name: string;
}

/** A directory row (and the contact pages' contact): the contact and the record it belongs to. */
export interface DirectoryContact extends Contact {
  owner: ContactOwner;
}

import type { RecordType } from '@shared/record-types.js';

/**
 * How a record or contact becomes its duplicate keys (docs/decisions/0108-duplicates-and-merge.md). One entry per
 * type names the columns that make its keys; when the record field definitions (src/shared/records/, a
 * `duplicateKey` flag per field) land, KEY_SOURCES is derived from them and nothing else here changes.
 */

/** What the duplicates hold: a record type or the contacts. */
export type DuplicateKind = RecordType | 'contact';
export type KeyType = 'email' | 'phone' | 'name';

type RawRow = Record<string, unknown>;

interface KeySource {
  /** The columns the keys are made of (read from the row). */
  columns: readonly string[];
  /** The record's name as shown (and as compared by the name keys and similarity); null for contacts. */
  name?: (row: RawRow) => string;
  email?: string;
  phone?: string;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const fullName = (row: RawRow) => `${text(row.firstName)} ${text(row.lastName)}`.trim();

export const KEY_SOURCES: Record<DuplicateKind, KeySource> = {
  event: { columns: ['eventName'], name: (row) => text(row.eventName) },
  professional: { columns: ['businessName'], name: (row) => text(row.businessName) },
  runclub: { columns: ['clubName'], name: (row) => text(row.clubName) },
  brand: { columns: ['brandName'], name: (row) => text(row.brandName) },
  media: { columns: ['mediaName'], name: (row) => text(row.mediaName) },
  influencer: { columns: ['firstName', 'lastName', 'email', 'phone'], name: fullName, email: 'email', phone: 'phone' },
  // Contacts are matched by email and phone only: two people may share a name, not an inbox or a mobile number.
  contact: { columns: ['email', 'phone'], email: 'email', phone: 'phone' },
};

/** The name a list shows for a row of this kind (contacts: their full name, else their email). */
export function displayName(kind: DuplicateKind, row: RawRow): string {
  if (kind === 'contact') return fullName(row) || text(row.email);
  return KEY_SOURCES[kind].name!(row);
}

/**
 * An email as one inbox: trimmed and lowercased. Gmail's dots and "+tag" parts are NOT folded: for a company inbox
 * they mean different people, and folding them only for gmail.com would surprise more than it finds.
 */
export function normaliseEmail(value: unknown): string {
  const email = text(value).trim().toLowerCase();
  return /^[^@\s]+@[^@\s]+$/.test(email) ? email : '';
}

/**
 * A phone number as its digits, with Australia's country code folded into the national form: "+61 412 345 678",
 * "0061 412 345 678" and "0412 345 678" are the one key "0412345678". Fewer than 6 digits is no key.
 */
export function normalisePhone(value: unknown): string {
  let digits = text(value).replace(/\D/g, '');
  if (digits.startsWith('0061')) digits = digits.slice(4);
  else if (digits.startsWith('61') && digits.length === 11) digits = digits.slice(2);
  if (digits.length === 9 && !digits.startsWith('0')) digits = `0${digits}`;
  return digits.length >= 6 ? digits : '';
}

/** Words that name a company's legal form (or lead its name) and say nothing about which one it is. */
const NOISE_WORDS = new Set(['pty', 'ltd', 'limited', 'inc', 'incorporated', 'co', 'company', 'the', 'proprietary', 'llc', 'corp']);

/**
 * A name's words, compared loosely: accents dropped, lowercased, "&" read as "and", punctuation gone, and the legal
 * form and a leading "The" left out. "The Sole Motive Pty. Ltd." → ["sole", "motive"].
 */
function nameWords(value: unknown): string[] {
  const plain = text(value)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’`.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return plain.split(' ').filter((word) => word !== '' && !NOISE_WORDS.has(word));
}

/** The name key: the words run together, so "Sole Motive" and "Solemotive Pty Ltd" are the same name. */
export function normaliseName(value: unknown): string {
  return nameWords(value).join('').slice(0, 191);
}

export interface DuplicateKey {
  keyType: KeyType;
  keyValue: string;
}

/** The keys of one row (the columns of KEY_SOURCES[kind]); a field left empty gives none. */
export function keysOf(kind: DuplicateKind, row: RawRow): DuplicateKey[] {
  const source = KEY_SOURCES[kind];
  const keys: DuplicateKey[] = [];
  const add = (keyType: KeyType, keyValue: string) => {
    if (keyValue.length >= 2) keys.push({ keyType, keyValue: keyValue.slice(0, 191) });
  };
  if (source.email) add('email', normaliseEmail(row[source.email]));
  if (source.phone) add('phone', normalisePhone(row[source.phone]));
  if (source.name) add('name', normaliseName(source.name(row)));
  return keys;
}

/** The trigrams of a name key, padded so short names still have some. */
function nameTrigrams(key: string): Set<string> {
  const padded = `  ${key} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

/** How alike two name keys are, 0–1 (the Jaccard index of their trigrams). */
export function nameSimilarity(a: string, b: string): number {
  if (a === '' || b === '') return 0;
  if (a === b) return 1;
  const ga = nameTrigrams(a);
  const gb = nameTrigrams(b);
  let shared = 0;
  for (const gram of ga) if (gb.has(gram)) shared++;
  return shared / (ga.size + gb.size - shared);
}

/** From this similarity on, two names are "similar". */
export const SIMILAR_FROM = 0.5;

/** The score of a pair: each reason's weight; two or more reasons add up (at most 1). */
export const REASON_WEIGHT: Record<KeyType, number> = { email: 0.95, phone: 0.9, name: 0.9 };

export function pairScore(reasonScores: readonly number[]): number {
  if (reasonScores.length === 0) return 0;
  const sorted = [...reasonScores].sort((a, b) => b - a);
  const extra = sorted.slice(1).reduce((sum, score) => sum + score * 0.1, 0);
  return Math.round(Math.min(1, sorted[0]! + extra) * 100) / 100;
}

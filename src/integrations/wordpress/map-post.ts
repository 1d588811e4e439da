import { decodeHTML } from 'entities';
import { normaliseDecimalText } from '@db/codecs.js';
import { typeSlug } from '@shared/choices.js';
import { invalidCharacterIn, isStorableText } from '@shared/schemas/text.js';
import { fieldKey, type FieldSpec, type PostTypeModel } from './content-model.js';
import type { WpPost } from './types.js';

/**
 * Turns one WordPress post into CRM column values by the content model. Values that cannot be used are left
 * empty and described in `problems` (never fatal); values adapted without loss (a type outside our list, stored
 * as `other` with the site's words beside it) are described in `warnings`. A post is rejected when it has no name, or when any text it
 * gives us breaks the text rule (src/shared/schemas/text.ts): that text cannot be stored as written, and leaving
 * the field empty instead would wipe what the CRM holds.
 */
export type MappedPost =
  | { ok: true; wordpressId: number; name: string; values: Record<string, unknown>; problems: string[]; warnings: string[] }
  | { ok: false; wordpressId: number; problem: string };

/** Plain text of a rendered WordPress string: tags removed, entities (&#8217; &#038; &amp;) decoded. */
export function plainText(rendered: string): string {
  return decodeHTML(rendered.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** "Massage Therapist", "massage_therapist", " MASSAGE  therapist " → "massage-therapist". */
export function enumKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-');
}

export function normaliseEnum(value: string, values: readonly string[], aliases: Record<string, string> = {}): string | null {
  const key = enumKey(value);
  return values.find((candidate) => enumKey(candidate) === key) ?? aliases[key] ?? null;
}

/** "www.example.org" → "https://www.example.org"; anything with a scheme (or nothing) is kept. */
export function normaliseUrl(value: string): string {
  const text = value.trim();
  if (!text || /^[a-z][a-z0-9+.-]*:/i.test(text)) return text;
  return `https://${text.replace(/^\/\//, '')}`;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === false || (Array.isArray(value) && value.length === 0);
}

function fieldBag(value: WpPost['meta'] | WpPost['acf']): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

/** meta wins; acf fills what meta leaves empty (sites expose one or the other, some both). */
function rawValue(post: WpPost, key: string): unknown {
  const fromMeta = fieldBag(post.meta)[key];
  if (!isEmpty(fromMeta)) return fromMeta;
  const fromAcf = fieldBag(post.acf)[key];
  return isEmpty(fromAcf) ? fromMeta : fromAcf;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return plainText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  return items.map(textOf).filter((item) => item !== '');
}

/** "2026-03-01", "2026-03-01 07:00:00", ACF's "20260301" → "2026-03-01". */
function dateOf(text: string): string | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T].*)?$/.exec(text);
  if (!match) return null;
  const [, y, m, d] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d)
    ? `${y}-${m}-${d}`
    : null;
}

interface FieldResult {
  value: unknown;
  problem?: string;
  warning?: string;
  /** The site's own words for values stored as `other` (the field's `otherColumn`). */
  other?: string | string[];
}

const OTHER = 'other';

/** "profession type 'Osteopath' is not one of …; saved as other (Osteopath)". */
function savedAsOther(field: FieldSpec & { values: readonly string[] }, items: string[]): string {
  const quoted = items.map((item) => `'${item}'`).join(', ');
  return `${field.label} ${quoted} is not one of ${field.values.join(', ')}; saved as other (${items.join(', ')})`;
}

function mapField(field: FieldSpec, raw: unknown): FieldResult {
  const empty = (problem?: string): FieldResult => ({
    value: field.type === 'list' || field.type === 'slugList' || field.type === 'enumList' ? [] : field.type === 'boolean' ? false : null,
    problem,
  });
  if (field.type === 'boolean') {
    const text = textOf(raw).toLowerCase();
    return { value: raw === true || raw === 1 || ['1', 'true', 'yes', 'on'].includes(text) };
  }
  if (field.type === 'list') return { value: listOf(raw) };
  if (field.type === 'slugList')
    return {
      value: [
        ...new Set(
          listOf(raw)
            .map(typeSlug)
            .filter((item) => item !== ''),
        ),
      ],
    };
  if (field.type === 'enumList') {
    const mapped: string[] = [];
    const unknown: string[] = [];
    for (const item of listOf(raw)) {
      const value = normaliseEnum(item, field.values, field.aliases);
      if (value) {
        if (!mapped.includes(value)) mapped.push(value);
      } else if (!unknown.includes(item)) unknown.push(item);
    }
    if (field.otherColumn) {
      if (unknown.length && !mapped.includes(OTHER)) mapped.push(OTHER);
      return { value: mapped, other: unknown, warning: unknown.length ? savedAsOther(field, unknown) : undefined };
    }
    return {
      value: mapped,
      problem: unknown.length
        ? `${field.label} ${unknown.map((item) => `'${item}'`).join(', ')} is not one of ${field.values.join(', ')}; left out`
        : undefined,
    };
  }
  const text = textOf(raw);
  if (text === '') return empty();
  switch (field.type) {
    case 'text':
      return text.length > field.max ? empty(`${field.label} is longer than ${field.max} characters; left empty`) : { value: text };
    case 'email':
      return text.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(text)
        ? empty(`${field.label} '${text}' is not an email address; left empty`)
        : { value: text };
    case 'url': {
      const url = normaliseUrl(text);
      return url.length > 2048 ? empty(`${field.label} is longer than 2048 characters; left empty`) : { value: url };
    }
    case 'date': {
      const date = dateOf(text);
      return date ? { value: date } : empty(`${field.label} '${text}' is not a date; left empty`);
    }
    case 'integer': {
      const number = Number(text);
      if (!/^-?\d+$/.test(text) || number < field.min || number > field.max) {
        return empty(`${field.label} '${text}' is not a whole number between ${field.min} and ${field.max}; left empty`);
      }
      return { value: number };
    }
    case 'decimal': {
      if (!/^-?\d+(\.\d+)?$/.test(text) || Math.abs(Number(text)) > field.limit) {
        return empty(`${field.label} '${text}' is not a number between -${field.limit} and ${field.limit}; left empty`);
      }
      return { value: normaliseDecimalText(text, field.scale) };
    }
    case 'enum': {
      const value = normaliseEnum(text, field.values, field.aliases);
      // The column holds 255 characters; a type name longer than that is cut, never refused.
      if (!value && field.otherColumn) return { value: OTHER, other: text.slice(0, 255), warning: savedAsOther(field, [text]) };
      return value ? { value } : empty(`${field.label} '${text}' is not one of ${field.values.join(', ')}; left empty`);
    }
  }
}

/** The text rule over every piece of text the field reads from the post, as the field reads it. */
function readsStorableText(field: FieldSpec, raw: unknown): boolean {
  const texts = field.type === 'list' || field.type === 'slugList' || field.type === 'enumList' ? listOf(raw) : [textOf(raw)];
  return texts.every(isStorableText);
}

export function describePost(model: PostTypeModel, post: Pick<WpPost, 'id'>, name?: string): string {
  return name ? `${model.noun} '${name}' (WordPress id ${post.id})` : `${model.noun} with WordPress id ${post.id}`;
}

export function mapPost(model: PostTypeModel, post: WpPost): MappedPost {
  const title = plainText(post.title?.rendered ?? '');
  const name = textOf(rawValue(post, fieldKey(model.name))) || title;
  if (!name)
    return { ok: false, wordpressId: post.id, problem: `${describePost(model, post)} has no ${model.name.label} and no title; skipped` };
  // Checked before the name is quoted in any message: problems are stored with the sync run.
  if (!isStorableText(name))
    return { ok: false, wordpressId: post.id, problem: `${describePost(model, post)}: ${invalidCharacterIn(model.name.label)}; skipped` };
  if (name.length > model.name.max) {
    return {
      ok: false,
      wordpressId: post.id,
      problem: `${describePost(model, post)}: ${model.name.label} is longer than ${model.name.max} characters; skipped`,
    };
  }
  const values: Record<string, unknown> = { [model.name.column]: name };
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const field of model.fields) {
    const raw = rawValue(post, fieldKey(field));
    if (!readsStorableText(field, raw)) {
      return {
        ok: false,
        wordpressId: post.id,
        problem: `${describePost(model, post, name)}: ${invalidCharacterIn(field.label)}; skipped`,
      };
    }
    const result = mapField(field, raw);
    values[field.column] = result.value;
    // Written every time, so a type the site later moves into our list clears the words kept beside `other`.
    if ((field.type === 'enum' || field.type === 'enumList') && field.otherColumn) {
      values[field.otherColumn] = field.type === 'enumList' ? (result.other ?? []) : (result.other ?? null);
    }
    if (result.problem) problems.push(`${describePost(model, post, name)}: ${result.problem}`);
    if (result.warning) warnings.push(`${describePost(model, post, name)}: ${result.warning}`);
  }
  return { ok: true, wordpressId: post.id, name, values, problems, warnings };
}

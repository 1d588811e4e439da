import type { z } from 'zod';
import { encodeTimestamp } from '@db/codecs.js';
import {
  DEFAULT_PREFERENCES,
  isPreferenceName,
  PreferenceBodySchema,
  PreferenceSchemas,
  type PreferenceName,
  type Preferences,
} from '@shared/schemas/preferences.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { parseInput } from '../validate.js';
import { preferenceRows, upsertPreference } from './queries.js';

/** A stored preference's value, or undefined when its text no longer fits the setting's schema (read as the default). */
export function storedPreference<N extends PreferenceName>(name: N, text: string): Preferences[N] | undefined {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = PreferenceSchemas[name].safeParse(stored);
  return parsed.success ? (parsed.data as Preferences[N]) : undefined;
}

/** Every preference of a user: what they chose, where it still fits its schema, else the default. */
export async function getPreferences(ctx: AppContext, userId: number): Promise<Preferences> {
  return preferencesOf(await preferenceRows(ctx.db, userId));
}

/** The preferences stored rows make (as read with the session): each one that still fits its schema, else the default. */
export function preferencesOf(rows: ReadonlyArray<{ name: string; value: string }>): Preferences {
  const out: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const row of rows) {
    if (!isPreferenceName(row.name)) continue;
    const value = storedPreference(row.name, row.value);
    if (value !== undefined) out[row.name] = value;
  }
  return out as Preferences;
}

/** Stores one preference; an unknown name is a 404, a value its schema refuses a 400. */
export async function setPreference(
  ctx: AppContext,
  userId: number,
  name: string,
  body: unknown,
): Promise<{ name: PreferenceName; value: unknown }> {
  if (!isPreferenceName(name)) throw notFound(`No preference is named ${name}`);
  const { value } = parseInput(PreferenceBodySchema, body);
  const schema: z.ZodType = PreferenceSchemas[name];
  const parsed: unknown = parseInput(schema, value);
  await upsertPreference(ctx.db, { userId, name, value: JSON.stringify(parsed), updatedAt: encodeTimestamp(ctx.clock.now())! });
  return { name, value: parsed };
}

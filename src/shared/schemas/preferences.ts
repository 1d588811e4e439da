import * as z from 'zod';
import { THEME_CHOICES } from '../theme.js';
import { RECORD_TYPES, type RecordType } from '../record-types.js';
import { recordDefinition, tableColumnsOf } from '../records/index.js';
import { LAYOUTS, listNameOf, LIST_NAMES, type ListLayout, type ListName, type ViewSetting } from '../list-options.js';

/**
 * Settings a user's screens remember, server-side so the first paint is already right: one schema per setting name.
 * A stored value that no longer fits its schema (a column since removed) reads as the default.
 */

type Columns = readonly [string, ...string[]];
const tableOf = (type: RecordType): Columns => {
  const [first, ...rest] = tableColumnsOf(recordDefinition(type)).all;
  if (first === undefined) throw new Error(`The ${type} table has no column`);
  return [first, ...rest];
};

/**
 * The columns each list's table can show, in display order (a record type's from its definition,
 * src/shared/records/).
 */
const TABLE_COLUMNS = {
  events: tableOf('event'),
  professionals: tableOf('professional'),
  runclubs: tableOf('runclub'),
  brands: tableOf('brand'),
  media: tableOf('media'),
  influencers: tableOf('influencer'),
  contacts: ['name', 'email', 'phone', 'jobTitle', 'owner', 'isPrimary', 'mailchimpTags'],
} as const satisfies Record<ListName, Columns>;

/** Shown until the user picks: a record table's unhidden columns, the contacts' first six. */
const SHOWN_COLUMNS: Partial<Record<ListName, readonly string[]>> = { contacts: TABLE_COLUMNS.contacts.slice(0, 6) };
for (const type of RECORD_TYPES) SHOWN_COLUMNS[listNameOf(type)] = tableColumnsOf(recordDefinition(type)).shown;

const columnsOf = (list: ListName) =>
  z
    .array(
      z.enum(TABLE_COLUMNS[list] as readonly string[] as [string, ...string[]], {
        error: `columns must be some of: ${TABLE_COLUMNS[list].join(', ')}`,
      }),
    )
    .min(1, 'Choose at least one column')
    .refine((columns) => new Set(columns).size === columns.length, 'A column is named twice');

const listPreferences = Object.fromEntries(
  LIST_NAMES.flatMap((list) => [
    [`${list}.view`, z.enum(LAYOUTS[list], { error: `view must be one of: ${LAYOUTS[list].join(', ')}` })],
    [`${list}.phoneView`, z.enum(LAYOUTS[list], { error: `view must be one of: ${LAYOUTS[list].join(', ')}` })],
    [`${list}.columns`, columnsOf(list)],
  ]),
) as Record<`${ListName}.${ViewSetting}`, z.ZodType<ListLayout>> & Record<`${ListName}.columns`, z.ZodType<string[]>>;

export const PreferenceSchemas = {
  theme: z.enum(THEME_CHOICES, { error: `theme must be one of: ${THEME_CHOICES.join(', ')}` }),
  ...listPreferences,
};
export type PreferenceName = keyof typeof PreferenceSchemas;
export type Preferences = { [N in PreferenceName]: z.output<(typeof PreferenceSchemas)[N]> };

/** What a user who never chose sees. */
export const DEFAULT_PREFERENCES = {
  theme: 'system',
  ...Object.fromEntries(
    LIST_NAMES.flatMap((list) => [
      [`${list}.view`, LAYOUTS[list][0]],
      [`${list}.phoneView`, LAYOUTS[list][0]],
      [`${list}.columns`, SHOWN_COLUMNS[list]],
    ]),
  ),
} as Preferences;

export function isPreferenceName(name: string): name is PreferenceName {
  return Object.hasOwn(PreferenceSchemas, name);
}

/** PUT /api/preferences/{name} */
export const PreferenceBodySchema = z.object({ value: z.unknown() }).strict();

import type { RecordType } from '../record-types.js';
import { BRAND } from './brand.js';
import { EVENT } from './event.js';
import { INFLUENCER } from './influencer.js';
import { MEDIA } from './media.js';
import { PROFESSIONAL } from './professional.js';
import { RUN_CLUB } from './runclub.js';
import type { RecordDef } from './define.js';
import { recordFields } from './read.js';

/**
 * The record definitions by type, and what the surfaces read from them (docs/conventions.md "Record definitions").
 * Browser-safe and without zod: `zodSchemaOf` (./zod.ts) makes a type's input schema.
 */

export type { RecordDef } from './define.js';
export * from './read.js';
export { SORTS } from './sorts.js';

export const RECORD_DEFINITIONS = {
  event: EVENT,
  professional: PROFESSIONAL,
  runclub: RUN_CLUB,
  brand: BRAND,
  media: MEDIA,
  influencer: INFLUENCER,
} satisfies Record<RecordType, RecordDef>;

type Defined = keyof typeof RECORD_DEFINITIONS;

export function recordDefinition<K extends Defined>(type: K): (typeof RECORD_DEFINITIONS)[K] {
  return RECORD_DEFINITIONS[type];
}

/** The history's field labels a type's definition sets (`historyLabel`); the others are worded from the field name. */
export function historyLabelsOf(type: RecordType): Readonly<Record<string, string>> {
  const definition: RecordDef = RECORD_DEFINITIONS[type];
  return Object.fromEntries(recordFields(definition).flatMap((field) => (field.historyLabel ? [[field.name, field.historyLabel]] : [])));
}

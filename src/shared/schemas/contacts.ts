import * as z from 'zod';
import { CONTACT_OWNER_TYPES } from '../record-types.js';
import { blankToNull, ownerId } from './fields.js';
import { INVALID_CHARACTER, isStorableText, text } from './text.js';

/**
 * mailchimpTags arrive typed comma separated (a string) or already as a list; either way they are split on commas,
 * trimmed, empties dropped and duplicates removed (spec point 5), so stored tags are always clean.
 */
export function normaliseTags(value: string | readonly string[] | null | undefined): string[] {
  const parts = typeof value === 'string' ? value.split(',') : (value ?? []).flatMap((tag) => tag.split(','));
  return [...new Set(parts.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
}

const optionalText = (max: number) => z.preprocess(blankToNull, text().trim().max(max).nullable().default(null));

/**
 * Tags, either form. The text rule runs after the union has picked the form: a failing option inside a union
 * would only surface as zod's bare "Invalid input", and the form should show the rule's own message.
 */
export const tags = z
  .union([z.string().max(2000), z.array(z.string().max(100)).max(100), z.null()])
  .optional()
  .check((ctx) => {
    const value = ctx.value;
    if (typeof value === 'string' && !isStorableText(value)) ctx.issues.push({ code: 'custom', message: INVALID_CHARACTER, input: value });
    if (Array.isArray(value)) {
      const bad = value.findIndex((tag) => !isStorableText(tag));
      if (bad !== -1) ctx.issues.push({ code: 'custom', message: INVALID_CHARACTER, input: value, path: [bad] });
    }
  })
  .transform((value) => normaliseTags(value));

export const ContactInputSchema = z
  .object({
    firstName: text('First name is required').trim().min(1, 'First name is required').max(100),
    lastName: text('Last name is required').trim().min(1, 'Last name is required').max(100),
    jobTitle: optionalText(255),
    email: z.preprocess(
      blankToNull,
      text()
        .pipe(z.email({ message: 'Invalid email address' }).max(320))
        .nullable()
        .default(null),
    ),
    phone: optionalText(50),
    notes: optionalText(10_000),
    entityType: z.enum(CONTACT_OWNER_TYPES, { message: `entityType must be one of ${CONTACT_OWNER_TYPES.join(', ')}` }),
    entityId: ownerId,
    isPrimary: z.boolean().default(false),
    mailchimpTags: tags,
  })
  .strict();

import { z } from 'zod';
import { CONTACT_OWNER_TYPES } from '../../services/attachments/owner-types.js';
import { blankToNull, ownerId } from '../../services/attachments/fields.js';

/**
 * mailchimpTags arrive typed comma separated (a string) or already as a list; either way they are split on commas,
 * trimmed, empties dropped and duplicates removed (spec point 5), so stored tags are always clean.
 */
export function normaliseTags(value: string | readonly string[] | null | undefined): string[] {
  const parts = typeof value === 'string' ? value.split(',') : (value ?? []).flatMap((tag) => tag.split(','));
  return [...new Set(parts.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
}

const optionalText = (max: number) => z.preprocess(blankToNull, z.string().trim().max(max).nullable().default(null));

export const ContactInputSchema = z
  .object({
    firstName: z.string({ message: 'First name is required' }).trim().min(1, 'First name is required').max(100),
    lastName: z.string({ message: 'Last name is required' }).trim().min(1, 'Last name is required').max(100),
    jobTitle: optionalText(255),
    email: z.preprocess(blankToNull, z.email({ message: 'Invalid email address' }).max(320).nullable().default(null)),
    phone: optionalText(50),
    notes: optionalText(10_000),
    entityType: z.enum(CONTACT_OWNER_TYPES, { message: `entityType must be one of ${CONTACT_OWNER_TYPES.join(', ')}` }),
    entityId: ownerId,
    isPrimary: z.boolean().default(false),
    mailchimpTags: z
      .union([z.string().max(2000), z.array(z.string().max(100)).max(100), z.null()])
      .optional()
      .transform((value) => normaliseTags(value)),
  })
  .strict();

export type ContactInput = z.infer<typeof ContactInputSchema>;
/** The body a form sends: tags may still be one comma separated string. */
export type ContactFormBody = z.input<typeof ContactInputSchema>;

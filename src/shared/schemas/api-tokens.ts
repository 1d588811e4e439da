import * as z from 'zod';
import { ROLES } from '../roles.js';
import { text } from './text.js';

/** Every API token begins with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'pcr_';

/** `POST /api/api-tokens`, the settings page's form and `pacer tokens create`: a name, a role and a lifetime. */
export const ApiTokenInputSchema = z
  .object({
    name: text().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }),
    /** Days until the token stops working; null or absent: it never expires. */
    expiresInDays: z
      .number({ error: 'Expiry must be a whole number of days' })
      .int('Expiry must be a whole number of days')
      .min(1, 'Expiry must be at least 1 day')
      .max(3650, 'Expiry must be at most 3650 days')
      .nullable()
      .optional(),
  })
  .strict();

const timestamp = z.iso.datetime();

/** A token as the list shows it: never the token itself, which is shown once, when it is made. */
export const ApiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(ROLES),
  /** active, or why it no longer works. */
  status: z.enum(['active', 'expired', 'revoked']),
  createdAt: timestamp,
  /** The admin who made it; null when made with the CLI (or the admin was deleted). */
  createdBy: z.string().nullable(),
  expiresAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** What creating a token answers (the API, `pacer tokens create --json`): the only time the token is shown. */
export const CreatedApiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(ROLES),
  token: z.string().startsWith(API_TOKEN_PREFIX),
  expiresAt: timestamp.nullable(),
});
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

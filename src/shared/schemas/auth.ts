import * as z from 'zod';
import { text } from './text.js';

/** bcrypt ignores bytes past 72, so longer passwords would be silently truncated: refuse them. */
const MAX_PASSWORD_BYTES = 72;
const utf8Length = (value: string) => new TextEncoder().encode(value).length;

export const LoginSchema = z
  .object({
    email: text().pipe(z.email()),
    // NUL is refused by the text rule: bcrypt would stop reading the password there.
    password: text()
      .min(1)
      .refine((value) => utf8Length(value) <= MAX_PASSWORD_BYTES, { message: `Password must be at most ${MAX_PASSWORD_BYTES} bytes` }),
  })
  .strict();

export const NewPasswordSchema = text()
  .min(8, 'Password must be at least 8 characters')
  .refine((value) => utf8Length(value) <= MAX_PASSWORD_BYTES, { message: `Password must be at most ${MAX_PASSWORD_BYTES} bytes` });

export const NewUserSchema = z
  .object({
    // The column holds 320 characters (the longest valid address); refuse longer rather than fail the insert.
    email: text().pipe(z.email().max(320, 'Email must be at most 320 characters')),
    password: NewPasswordSchema,
    firstName: text().trim().min(1, 'First name is required').max(100),
    lastName: text().trim().min(1, 'Last name is required').max(100),
  })
  .strict();
export type NewUserInput = z.infer<typeof NewUserSchema>;

/** The user as the browser and API callers see it: never the hash or the session version. */
export interface PublicUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  createdAt: string;
  lastLogin: string | null;
}

import * as z from 'zod';
import { ROLES, type Role } from '../roles.js';
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
    role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }).default('staff'),
  })
  .strict();
export type NewUserInput = z.input<typeof NewUserSchema>;

/** /settings/account: my name. */
export const NameSchema = z
  .object({
    firstName: text().trim().min(1, 'First name is required').max(100),
    lastName: text().trim().min(1, 'Last name is required').max(100),
  })
  .strict();

/** /settings/account: a new password, proven by the current one. */
export const PasswordChangeSchema = z
  .object({
    currentPassword: text().min(1, 'Enter your current password'),
    newPassword: NewPasswordSchema,
  })
  .strict();

/** The first-run set-up form: no role to choose, the first account runs the system (an admin). */
export const SetupSchema = NewUserSchema.omit({ role: true });

/** The user as the browser and API callers see it: never the hash or the session version. */
export interface PublicUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  isActive: boolean;
  createdAt: string;
  lastLogin: string | null;
}

/** One of my signed-in sessions, as /settings/account lists them. */
export interface SessionView {
  id: string;
  browser: string;
  os: string;
  ip: string;
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
}

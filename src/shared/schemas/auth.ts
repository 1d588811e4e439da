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
    /** The second factor, when the account has one: a code from the authenticator app or a recovery code. */
    code: text().trim().max(64).optional(),
    /** Or a passkey's assertion in place of the code (docs/decisions/0104). */
    passkey: z.lazy(() => PasskeyAssertionSchema).optional(),
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

/** A code typed to confirm or turn off two-factor sign-in (an authenticator code or, to turn off, a recovery code). */
export const SecondFactorCodeSchema = z
  .object({ code: text().trim().min(1, 'Enter the code from your authenticator app').max(64) })
  .strict();

export const DisableTwoFactorSchema = z
  .object({
    password: text().min(1, 'Enter your password'),
    code: text().trim().min(1, 'Enter a code from your authenticator app or a recovery code').max(64),
  })
  .strict();

/** "Forgot password?": the address to send a link to. */
export const PasswordResetRequestSchema = z.object({ email: text().trim().pipe(z.email('Enter a valid email address').max(320)) }).strict();

/** The first step of setting up an authenticator app: shown once, until a first code confirms it. */
export interface TotpEnrolment {
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a QR code (SVG markup). */
  qrSvg: string;
}

/** My second factors and the site's rule, as /settings/account shows them. */
export interface TwoFactorStatus {
  totpEnabled: boolean;
  recoveryCodesLeft: number;
  /** The admin requires two-factor sign-in for everyone. */
  required: boolean;
  /** This session may only set up a second factor until it is done. */
  setupRequired: boolean;
}

/** One entry of the sign-in history. */
export interface SignInEventView {
  id: number;
  occurredAt: string;
  kind: SignInEventKind;
  succeeded: boolean;
  /** How: 'password', 'totp', 'recovery_code'; why it failed: 'password', 'second_factor', 'inactive', 'throttled'. */
  detail: string | null;
  ip: string;
  browser: string;
  os: string;
  /** Someone else did it (an admin's reset), by name. */
  by: string | null;
}

/** A browser's WebAuthn assertion (base64url fields), checked for shape before the library checks the rest. */
export const PasskeyAssertionSchema = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z
      .object({
        clientDataJSON: z.string().min(1).max(8192),
        authenticatorData: z.string().min(1).max(8192),
        signature: z.string().min(1).max(8192),
        userHandle: z.string().max(1024).optional(),
      })
      .loose(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .loose();

/** POST /api/login/passkey: the sign-in with a passkey alone. */
export const PasskeySignInSchema = z.object({ response: PasskeyAssertionSchema }).strict();

/** A passkey's name, as its owner tells them apart ("Work laptop"). */
export const PasskeyNameSchema = z
  .object({ name: text().trim().min(1, 'Give the passkey a name').max(100, 'Name must be at most 100 characters') })
  .strict();

/** POST /api/me/passkeys: the browser's new credential (WebAuthn registration response) and its name. */
export const PasskeyRegistrationSchema = PasskeyNameSchema.extend({
  response: z
    .object({
      id: z.string().min(1).max(1024),
      rawId: z.string().min(1).max(1024),
      type: z.literal('public-key'),
      response: z
        .object({
          clientDataJSON: z.string().min(1).max(8192),
          attestationObject: z.string().min(1).max(65536),
          transports: z.array(z.string().max(32)).max(10).optional(),
        })
        .loose(),
      clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
      authenticatorAttachment: z.string().max(32).optional(),
    })
    .loose(),
}).strict();

/** One of my passkeys, as /settings/account lists them. */
export interface PasskeyView {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export const SIGN_IN_EVENT_KINDS = [
  'sign_in',
  'second_factor',
  'password_changed',
  'password_reset',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_reset',
  'passkey_added',
  'passkey_removed',
] as const;
export type SignInEventKind = (typeof SIGN_IN_EVENT_KINDS)[number];

import { useRef, useState, type FormEvent } from 'react';
import { messageOf } from '@shared/api-error.js';
import { SIGN_IN_INTENT } from '@shared/session.js';
import { firstErrorPerField, type FieldErrors } from '@shared/field-errors.js';
import { apiRequest } from '@views/data/http.js';
import { PRODUCT_TITLE } from '@views/components/layout/product.js';
import { formCheck, usePreloadedCheck, type FormCheck } from '@views/hooks/form-check.js';
import { usePasskeySupport } from '@views/hooks/use-passkey-support.js';

/** The auth forms' checks: the schemas the API parses them with, loaded as the form shows. */
const loginCheck = formCheck(() => import('@shared/schemas/auth.js').then((schemas) => schemas.LoginSchema));
const setupCheck = formCheck(() => import('@shared/schemas/auth.js').then((schemas) => schemas.SetupSchema));
import { Alert, Button, Card, FieldError, Input, Label } from '@views/components/ui/primitives.js';

/** After signing in, load the very URL the user asked for, now rendered for them. */
function reloadHere() {
  window.location.assign(window.location.pathname + window.location.search);
}

/** A labelled text box of the auth screens, with its message under it. */
export function TextField(props: {
  name: string;
  label: string;
  type?: string;
  autoComplete?: string;
  error?: string;
  required?: boolean;
}) {
  const id = `field-${props.name}`;
  return (
    <div className="field">
      <Label htmlFor={id} required={props.required}>
        {props.label}
      </Label>
      <Input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} message={props.error} />
    </div>
  );
}

/**
 * The submit logic both auth forms share: validate with the shared schema, show field messages, post, and on
 * success reload this URL signed in; on failure show the server's message (or the fallback).
 */
function useAuthForm(
  check: FormCheck,
  url: string,
  fields: readonly string[],
  fallback: string,
  refusal?: string,
  /** Sees each refusal (the sign-in form shows its code field on the second-factor step). */
  onRefused?: (error: unknown) => void,
) {
  usePreloadedCheck(check);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(refusal ?? null);
  const [errors, setErrors] = useState<FieldErrors>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(fields.map((name) => [name, form.get(name) ?? '']));
    setServerError(null);
    setPending(true);
    await check.load();
    // Without its check (it could not be loaded) the form is sent as typed, and the server's message shows.
    const parsed = check.loaded()?.safeParse(body) ?? { success: true as const, data: body };
    if (!parsed.success) {
      setErrors(firstErrorPerField(parsed.error.issues));
      setPending(false);
      return;
    }
    setErrors({});
    try {
      await apiRequest('POST', url, parsed.data);
      reloadHere();
    } catch (error) {
      setServerError(messageOf(error, fallback));
      onRefused?.(error);
      setPending(false);
    }
  }

  return { pending, serverError, errors, onSubmit: (event: FormEvent<HTMLFormElement>) => void onSubmit(event) };
}

/** The error code of an API refusal (our JSON error shape), if any. */
function refusalCode(error: unknown): string | undefined {
  const body = (error as { body?: unknown } | null)?.body;
  if (typeof body !== 'string') return undefined;
  try {
    return (JSON.parse(body) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/**
 * The sign-in form. It posts to the page's own URL, so a click before hydration or without JavaScript signs in
 * too (the server answers with this screen and `refusal`, or loads the page signed in); once hydrated it posts to
 * /api/login instead. An account with two-factor sign-in is asked for its code after the password: the same form
 * shows the code field and sends all three again.
 */
export function LoginScreen(props: { refusal?: string; askCode?: boolean; resetByEmail?: boolean; passkeys?: boolean }) {
  const [askCode, setAskCode] = useState(Boolean(props.askCode));
  const [forgot, setForgot] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const passkey = usePasskeySignIn(Boolean(props.passkeys));
  const { pending, serverError, errors, onSubmit } = useAuthForm(
    loginCheck,
    '/api/login',
    askCode ? ['email', 'password', 'code'] : ['email', 'password'],
    'Login failed',
    props.refusal,
    (error) => {
      const code = refusalCode(error);
      if (code === 'second_factor_required' || code === 'invalid_second_factor') setAskCode(true);
    },
  );
  if (forgot) return <ForgotPasswordScreen resetByEmail={Boolean(props.resetByEmail)} onBack={() => setForgot(false)} />;
  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1 className="auth-title">{PRODUCT_TITLE}</h1>
        <p className="muted">Access is limited to authorized users only.</p>
        {(passkey.error ?? serverError) && <Alert variant="destructive">{passkey.error ?? serverError}</Alert>}
        <form method="post" onSubmit={onSubmit} noValidate ref={formRef}>
          <input type="hidden" name="intent" value={SIGN_IN_INTENT} />
          <TextField name="email" label="Email" type="email" autoComplete="username" error={errors.email} />
          <TextField name="password" label="Password" type="password" autoComplete="current-password" error={errors.password} />
          {askCode && (
            <TextField name="code" label="Authenticator code or recovery code" autoComplete="one-time-code" error={errors.code} />
          )}
          <Button type="submit" disabled={pending} className="btn-block">
            {pending ? 'Signing in...' : 'Sign In'}
          </Button>
        </form>
        {passkey.available && (
          <Button
            variant="outline"
            className="btn-block auth-passkey"
            disabled={passkey.pending || pending}
            onClick={() => passkey.signIn(askCode ? formRef.current : null)}
          >
            {passkey.pending ? 'Waiting for the passkey...' : askCode ? 'Use a passkey instead' : 'Sign in with a passkey'}
          </Button>
        )}
        <p className="auth-footer">
          <Button variant="ghost" className="btn-sm" onClick={() => setForgot(true)}>
            Forgot password?
          </Button>
        </p>
      </Card>
    </div>
  );
}

/**
 * "Sign in with a passkey" (docs/decisions/0104): shown once hydrated, when the site has passkeys and the browser
 * can use them (without script the button could do nothing). The WebAuthn code is loaded on the click. With a form
 * (the code step), the passkey stands in for the code and the email and password are sent again with it; without,
 * the passkey is the whole sign-in.
 */
function usePasskeySignIn(enabled: boolean) {
  const supported = usePasskeySupport();
  const available = enabled && supported === true;
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signIn(form: HTMLFormElement | null) {
    setError(null);
    setPending(true);
    let webauthn: typeof import('@views/data/webauthn.js') | undefined;
    try {
      webauthn = await import('@views/data/webauthn.js');
      const options = await apiRequest<import('@views/data/webauthn.js').RequestOptionsJSON>('POST', '/api/login/passkey/options', {});
      const response = await webauthn.getPasskey(options);
      if (form) {
        const fields = new FormData(form);
        await apiRequest('POST', '/api/login', { email: fields.get('email'), password: fields.get('password'), passkey: response });
      } else await apiRequest('POST', '/api/login/passkey', { response });
      reloadHere();
    } catch (problem) {
      setError(webauthn?.passkeyPromptMessage(problem, 'The passkey could not be used.') ?? messageOf(problem, 'Passkey sign-in failed'));
      setPending(false);
    }
  }
  return { available, pending, error, signIn: (form: HTMLFormElement | null) => void signIn(form) };
}

/** "Forgot password?": a link by email when the site can send one, else who to ask. The answer never says whether the address has an account. */
function ForgotPasswordScreen({ resetByEmail, onBack }: { resetByEmail: boolean; onBack: () => void }) {
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setProblem(null);
    setPending(true);
    try {
      await apiRequest('POST', '/api/password-reset', { email });
      setSentTo(email);
    } catch (error) {
      setProblem(messageOf(error, 'The request could not be sent'));
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="auth-page">
      <Card className="auth-card">
        <p className="auth-title">{PRODUCT_TITLE}</p>
        <h1>Forgot password?</h1>
        {!resetByEmail ? (
          <p>This site does not send reset links by email: ask an admin for a link to set a new password.</p>
        ) : sentTo ? (
          <p role="status">
            If an account uses {sentTo}, an email is on its way with a link to set a new password. The link works once, for 72 hours.
          </p>
        ) : (
          <>
            <p className="muted">Enter the email address you sign in with, and we will email you a link to set a new password.</p>
            {problem && <Alert variant="destructive">{problem}</Alert>}
            <form method="post" onSubmit={(event) => void submit(event)} noValidate>
              <TextField name="email" label="Email" type="email" autoComplete="username" required />
              <Button type="submit" disabled={pending} className="btn-block">
                {pending ? 'Sending...' : 'Email me a link'}
              </Button>
            </form>
          </>
        )}
        <p className="auth-footer">
          <Button variant="ghost" className="btn-sm" onClick={onBack}>
            Back to sign in
          </Button>
        </p>
      </Card>
    </div>
  );
}

export function SetupScreen() {
  const { pending, serverError, errors, onSubmit } = useAuthForm(
    setupCheck,
    '/api/setup',
    ['email', 'password', 'firstName', 'lastName'],
    'Could not create the account',
  );
  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1 className="auth-title">{PRODUCT_TITLE}</h1>
        <h2>Create the first admin account</h2>
        <p className="muted">No one has signed up yet. This account can then add the rest of the team from the terminal.</p>
        {serverError && <Alert variant="destructive">{serverError}</Alert>}
        {/* Posted: a click before hydration must not put the password in the URL (the server refuses the post). */}
        <form method="post" onSubmit={onSubmit} noValidate>
          <TextField name="email" label="Email" type="email" autoComplete="username" error={errors.email} required />
          <TextField name="password" label="Password" type="password" autoComplete="new-password" error={errors.password} required />
          <TextField name="firstName" label="First name" autoComplete="given-name" error={errors.firstName} required />
          <TextField name="lastName" label="Last name" autoComplete="family-name" error={errors.lastName} required />
          <Button type="submit" disabled={pending} className="btn-block">
            {pending ? 'Creating...' : 'Create account'}
          </Button>
        </form>
      </Card>
    </div>
  );
}

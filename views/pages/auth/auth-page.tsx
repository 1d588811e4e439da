import { LoginScreen, SetupScreen } from './login-screen.js';
import { SetPasswordScreen } from './set-password-screen.js';

/**
 * The pages outside the app: the sign-in screen (or, before anyone has signed up, first-run set-up) that a signed-out
 * visitor gets at any URL, and the one-time set-password page at its link. The server renders them with this tree
 * and views/entry.auth.tsx hydrates it, with neither the router nor the route table: each is one form, and after
 * it the browser loads the app's page as a new document.
 */
export type AuthScreen =
  | {
      name: 'sign-in';
      /** Why a sign-in posted without JavaScript was refused. */
      error?: string;
      /** The password was right and the account has a second factor: show the code field. */
      askCode?: boolean;
      /** "Forgot password?" emails a link (mail and APP_URL are set up); otherwise it says to ask an admin. */
      resetByEmail?: boolean;
      /** The site's address is set: passkeys can sign in (docs/decisions/0104). */
      passkeys?: boolean;
    }
  | { name: 'setup' }
  | { name: 'set-password'; token: string };

export function AuthPage({ screen }: { screen: AuthScreen }) {
  switch (screen.name) {
    case 'sign-in':
      return <LoginScreen refusal={screen.error} askCode={screen.askCode} resetByEmail={screen.resetByEmail} passkeys={screen.passkeys} />;
    case 'setup':
      return <SetupScreen />;
    case 'set-password':
      return <SetPasswordScreen token={screen.token} />;
  }
}

import { AUTH_SCREEN_ID } from '@shared/hydration.js';
import { AuthPage, type AuthScreen } from './pages/auth/auth-page.js';
import { hydratePage } from './hydrate.js';

// The auth pages' own entry (sign-in, first-run set-up, set-password): React and the one screen, no router, so a
// signed-out visitor's first load is a fraction of the app's. The server says which screen it rendered.
const screen = JSON.parse(document.getElementById(AUTH_SCREEN_ID)!.textContent!) as AuthScreen;
hydratePage(<AuthPage screen={screen} />);

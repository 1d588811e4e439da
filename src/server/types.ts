import type { PublicUser } from '@shared/schemas/auth.js';
import type { ThemeChoice } from '@shared/theme.js';
import type { AppContext } from '@services/context.js';
import type { LoginThrottle } from '@services/auth/login-throttle.js';
import type { TokenIdentity } from '@services/api-tokens/service.js';
import type { AssetManifest } from '@ssr/assets.js';

/** The cookie payload: signed, not encrypted; the token is checked against its hash in the sessions table. */
export interface SessionPayload {
  token?: string;
}

export interface ServerContext extends AppContext {
  throttle: LoginThrottle;
  assets: AssetManifest;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's request type is extended through this namespace.
  namespace Express {
    interface Request {
      user?: PublicUser;
      /** Set on /api requests made with `Authorization: Bearer` (src/server/api-token-auth.ts); user is then unset. */
      apiToken?: TokenIdentity;
      /** The signed-in session's id (the hash of the cookie's token): logout and the sessions list use it. */
      sessionId?: string;
      /** The signed-in user's chosen theme, read with the session; undefined when they never chose one. */
      themePreference?: ThemeChoice;
      /**
       * The user's stored preferences as read with the session, so a page's loaders need no query for them; cleared
       * when the request itself changes one (later reads then go to the database).
       */
      storedPreferences?: ReadonlyArray<{ name: string; value: string }>;
      /** The admin requires a second factor and this user has none: only its set-up is open (holdForSecondFactorSetup). */
      secondFactorSetupRequired?: boolean;
      /** Why the sign-in form, posted to a page, was refused: the sign-in screen shows it with its status. */
      signInRefusal?: { status: number; message: string; code: string };
      ctx: ServerContext;
    }
  }
}

import type { PublicUser } from '@shared/schemas/auth.js';
import type { AppContext } from '@services/context.js';
import type { LoginThrottle } from '@services/auth/login-throttle.js';

/** The cookie payload: signed, not encrypted, so nothing secret (security checklist item 6). */
export interface SessionPayload {
  /** Random per sign-in, so every new session differs from any earlier one (fixation). */
  sid?: string;
  uid?: number;
  ver?: number;
  iat?: number;
  last?: number;
}

export interface ServerContext extends AppContext {
  throttle: LoginThrottle;
  assets: AssetManifest;
}

export interface AssetManifest {
  entry: string;
  css: string[];
  preload: string[];
  /** Per route id: the route's page module and the chunks it imports beyond the entry's (preloaded with it). */
  routes?: Record<string, string[]>;
  /** The stylesheets' text, placed in each page instead of links to `css` (read from the build at start). */
  inlineCss?: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's request type is extended through this namespace.
  namespace Express {
    interface Request {
      user?: PublicUser;
      ctx: ServerContext;
    }
  }
}

import type { PublicUser } from './schemas/auth.js';
import type { ThemeChoice } from './theme.js';

interface PublicSettings {
  publicSiteUrl: string | null;
  wordpressAdminUrl: string | null;
}

/** What the root route knows about the visit: who is signed in, and how to format for them. */
export interface SessionInfo {
  user: PublicUser | null;
  needsSetup: boolean;
  locale: string;
  timeZone: string;
  theme: ThemeChoice;
  env: PublicSettings;
}

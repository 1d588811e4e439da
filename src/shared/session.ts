import type { PublicUser } from './schemas/auth.js';
import type { AttentionCounts } from './schemas/tasks.js';
import type { ThemeChoice } from './theme.js';

interface PublicSettings {
  publicSiteUrl: string | null;
  wordpressAdminUrl: string | null;
  /** The site's address is set, so passkeys can be used (docs/decisions/0104). */
  passkeys?: boolean;
}

/** What the root route knows about the visit: who is signed in, and how to format for them. */
export interface SessionInfo {
  user: PublicUser | null;
  needsSetup: boolean;
  locale: string;
  timeZone: string;
  theme: ThemeChoice;
  env: PublicSettings;
  /** Signed in: my open tasks due by today and unread notifications (the nav's badge, the bell's count). */
  attention?: AttentionCounts;
}

/**
 * The hidden field of the sign-in form, which posts to the page's own URL so a click before hydration or without
 * JavaScript signs in too: it tells the sign-in post from a signed-out post of any other page form (refused).
 */
export const SIGN_IN_INTENT = 'sign-in';

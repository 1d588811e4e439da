import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import type { ThemeChoice } from '@shared/theme.js';
import { apiRequest } from '@views/data/http.js';
import { useInAppLinkClicks } from '../ui/in-app-links.js';
import { Button } from '../ui/primitives.js';
import { Tooltip } from '../ui/tooltip.js';
import { SearchEntry } from '../search/search-entry.js';
import { KeyboardShortcuts } from '../search/shortcuts.js';
import { ThemeToggle } from './theme-toggle.js';
import { PRODUCT_TITLE } from './product.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

/** The side navigation of spec point 1: the dashboard, the six record lists in spec order, contacts, integrations, jobs. */
export const NAV_ITEMS: ReadonlyArray<{ to: string; label: string }> = [
  { to: '/', label: 'Dashboard' },
  ...RECORD_TYPES.map((type) => ({ to: RECORD_TYPE_INFO[type].path, label: RECORD_TYPE_INFO[type].plural })),
  // Every contact of every owner in one list (issue 12), beside the spec's screens.
  { to: '/contacts', label: 'Contacts' },
  { to: '/integrations', label: 'Integrations' },
  // Recent and running imports, syncs and newsletter pushes (issue 14), beside the spec's screens.
  { to: '/jobs', label: 'Jobs' },
  // My open tasks and what is done (issue 33), with the number due by today beside it.
  { to: '/tasks', label: 'My tasks' },
];

export function avatarInitials(email: string): string {
  return email.slice(0, 2).toUpperCase();
}

/** The nav entry for the current page: the dashboard only at '/', a section also on its sub-pages. */
function isCurrentSection(to: string, pathname: string): boolean {
  return to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
}

/**
 * Plain anchors whose clicks the nav hands to the router (useInAppLinkClicks): the nav is on every page, and a
 * NavLink each cost more server render time than the rest of the layout.
 */
function SideNav({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const followLink = useInAppLinkClicks();
  return (
    // Not an interactive element: it only hands the clicks of the links inside it to the router.
    <nav
      aria-label="Main"
      onClick={(event) => {
        followLink(event);
        if (event.defaultPrevented) onNavigate?.();
      }}
    >
      <ul className="nav-list">
        {NAV_ITEMS.map((item) => {
          const current = isCurrentSection(item.to, pathname);
          return (
            <li key={item.to}>
              <a href={item.to} className={current ? 'nav-link active' : 'nav-link'} aria-current={current ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

const USER_MENU_ID = 'user-menu';

/**
 * The avatar is the button of a menu of the settings pages this user may open (their account, and for admins the
 * users and Recently deleted), on every width. A native popover: it opens before the JavaScript has loaded, and a
 * click elsewhere or Escape closes it, without any script of ours in every page's first load.
 */
function UserMenu({ user }: { user: PublicUser }) {
  return (
    <>
      <button
        type="button"
        className="user-menu-button"
        popoverTarget={USER_MENU_ID}
        aria-label={`Account menu of ${user.email}, ${avatarInitials(user.email)}`}
      >
        <Tooltip label={`${user.firstName} ${user.lastName}`.trim() || user.email}>
          {/* The button's name ends with the initials it shows, so what is seen is what a voice user says. */}
          <span className="avatar" aria-hidden="true">
            {avatarInitials(user.email)}
          </span>
        </Tooltip>
      </button>
      <nav id={USER_MENU_ID} popover="auto" aria-label="Settings" className="user-menu">
        <a href="/settings/account">Account</a>
        <a href="/duplicates?type=contacts">Possible duplicates</a>
        {user.role === 'admin' && <a href="/settings/users">Users</a>}
        {user.role === 'admin' && <a href="/settings/deleted">Recently deleted</a>}
        {user.role === 'admin' && <a href="/settings/backups">Backups</a>}
        {user.role === 'admin' && <a href="/settings/api-tokens">API tokens</a>}
        {user.role === 'admin' && <a href="/settings/webhooks">Webhooks</a>}
        {user.role === 'admin' && <a href="/settings/activity">Activity log</a>}
      </nav>
    </>
  );
}

async function signOut() {
  try {
    await apiRequest('POST', '/api/logout');
  } finally {
    // A full load drops every cached loader result along with the session.
    window.location.assign('/');
  }
}

const loadNavDrawer = () => import('./nav-drawer.js');

/** `theme`: the visitor's theme choice as the server read it, which the header's toggle starts from. */
export function MainLayout({ user, theme, children }: { user: PublicUser; theme: ThemeChoice; children: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const location = useLocation();
  // The drawer (Radix's dialog) loads after hydration; a tap on the menu before that opens it once it has.
  const drawer = useLoadedAfterHydration(loadNavDrawer);
  const menuButton = (
    <button type="button" className="menu-button" aria-label="Open navigation" onClick={drawer ? undefined : () => setDrawerOpen(true)}>
      <span aria-hidden="true">☰</span>
    </button>
  );
  return (
    <div className="app-shell">
      <header className="app-header">
        {drawer ? (
          <drawer.NavDrawer open={drawerOpen} onOpenChange={setDrawerOpen} trigger={menuButton}>
            <SideNav key={location.pathname} onNavigate={() => setDrawerOpen(false)} />
          </drawer.NavDrawer>
        ) : (
          menuButton
        )}
        <span className="app-title">{PRODUCT_TITLE}</span>
        <SearchEntry />
        <KeyboardShortcuts />
        <div className="header-user">
          {/* The notification bell (issue 33) comes with the drawer's module, after hydration: no page's first load. */}
          {drawer && <drawer.Bell />}
          <ThemeToggle initial={theme} />
          <span className="header-email">{user.email}</span>
          <UserMenu user={user} />
          <Button variant="outline" onClick={() => void signOut()}>
            Logout
          </Button>
        </div>
      </header>
      <div className="app-body">
        <aside className="side-nav">
          <SideNav />
        </aside>
        <main className="app-main" id="main">
          {children}
        </main>
      </div>
    </div>
  );
}

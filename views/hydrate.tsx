import { StrictMode, useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

function rememberTimeZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * Says when React has hydrated the page (its effects run after the first commit): `data-hydrated` on <html> and a
 * `hydrated` performance mark, so tests and measurements can tell a painted page from an interactive one.
 */
function MarkHydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    performance.mark('hydrated');
    document.documentElement.setAttribute('data-hydrated', '');
  }, []);
  return children;
}

/**
 * What both entries (the app's and the auth pages') do with the tree the server rendered into #root: hydrate it,
 * saying when that is done, and remember the browser's time zone for the pages the server renders next.
 */
export function hydratePage(page: ReactNode): void {
  rememberTimeZone();
  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <MarkHydrated>{page}</MarkHydrated>
    </StrictMode>,
  );
}

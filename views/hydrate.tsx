import { StrictMode, useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { DEVICE_COOKIE, PHONE_MEDIA_QUERY } from '@shared/device.js';

function rememberTimeZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
}

/** Reports whether this is a phone (by its width), for the list layouts the server paints next. */
function rememberDeviceClass() {
  document.cookie = `${DEVICE_COOKIE}=${matchMedia(PHONE_MEDIA_QUERY).matches ? 'phone' : 'desktop'}; path=/; max-age=31536000; samesite=lax`;
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
  rememberDeviceClass();
  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <MarkHydrated>{page}</MarkHydrated>
    </StrictMode>,
  );
}

import { useCallback, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/** The clicks a browser would turn into a plain same-tab navigation (no new tab, window or download). */
function isPlainLinkClick(event: MouseEvent<HTMLElement>, anchor: HTMLAnchorElement): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return false;
  if (anchor.target && anchor.target !== '_self') return false;
  return !anchor.hasAttribute('download') && anchor.origin === window.location.origin;
}

/**
 * One click handler that turns clicks on plain `<a href>` links inside a container into client-side navigations.
 * A list page renders dozens of card links on the server for every request, and a react-router `<Link>` per link
 * (each with its own path-resolution hooks) was a tenth of the page's render time; the links stay real anchors,
 * so they work before hydration and open in a new tab as usual.
 */
export function useInAppLinkClicks(): (event: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || !event.currentTarget.contains(anchor) || !isPlainLinkClick(event, anchor)) return;
      event.preventDefault();
      void navigate(anchor.pathname + anchor.search + anchor.hash);
    },
    [navigate],
  );
}

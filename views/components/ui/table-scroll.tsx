import type { ReactNode } from 'react';

/**
 * A table wider than the screen scrolls sideways inside this frame, which says so with an edge shadow on each side
 * that has more columns past it (drawn by the stylesheet from the scroll position, so no script is needed and the
 * server's first paint already shows it). `stickyLast` keeps the last column (a row's actions: Restore,
 * Deactivate) pinned at the right edge, so it is reachable without scrolling.
 */
export function TableScroll({ stickyLast = false, children }: { stickyLast?: boolean; children: ReactNode }) {
  return (
    <div className={stickyLast ? 'table-scroll-frame table-sticky-last' : 'table-scroll-frame'}>
      <div className="table-scroll">{children}</div>
    </div>
  );
}

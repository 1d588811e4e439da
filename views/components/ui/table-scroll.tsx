import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A table wider than the screen scrolls sideways inside this frame, which says so: an edge shadow on each side that
 * has more columns past it (`data-more-left`, `data-more-right`). `stickyLast` keeps the last column (a row's
 * actions: Restore, Deactivate) pinned at the right edge, so it is reachable without scrolling.
 */
export function TableScroll({ stickyLast = false, children }: { stickyLast?: boolean; children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => {
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setMore((was) => (was.left === left && was.right === right ? was : { left, right }));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    if (element.firstElementChild) resized.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  }, []);
  return (
    <div
      className={stickyLast ? 'table-scroll-frame table-sticky-last' : 'table-scroll-frame'}
      data-more-left={more.left || undefined}
      data-more-right={more.right || undefined}
    >
      <div ref={scroller} className="table-scroll">
        {children}
      </div>
    </div>
  );
}

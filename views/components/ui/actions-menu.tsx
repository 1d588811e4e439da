import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A "⋯" menu for the quieter actions of a card or a row (its delete). A <details> element, so it opens and
 * its buttons post before the JavaScript has loaded; once hydrated, a click elsewhere or Escape closes it. A
 * click or Escape inside a dialog opened from it (the delete confirmation) leaves it open, so focus returns to its item.
 */
export function ActionsMenu({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: Event) => {
      const menu = ref.current;
      if (!menu?.open) return;
      if (event instanceof KeyboardEvent) {
        // Only while focus is in the menu: an Escape that closes a dialog opened from it leaves the menu open.
        if (event.key !== 'Escape' || !menu.contains(document.activeElement)) return;
        menu.open = false;
        menu.querySelector('summary')?.focus();
        return;
      }
      const target = event.target as Element | null;
      if (target && (menu.contains(target) || target.closest('[role="alertdialog"], [role="dialog"]'))) return;
      menu.open = false;
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, []);
  return (
    <details ref={ref} className="actions-menu">
      <summary className="btn btn-ghost btn-sm actions-menu-trigger" aria-label={label} title={label}>
        <span aria-hidden="true">⋯</span>
      </summary>
      <div className="actions-menu-items">{children}</div>
    </details>
  );
}

import { useEffect, useState } from 'react';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

const loadShortcutsDialog = () => import('./shortcuts-dialog.js');

/** Keys that belong to what the user is typing in, never to a shortcut. */
function typingIn(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** `/` focuses the current list's search box; `?` lists the shortcuts (Escape closes it, as every dialog). */
export function KeyboardShortcuts() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (event.key === '/') {
        const search = document.getElementById('records-search');
        if (!search) return;
        event.preventDefault();
        search.focus();
      } else if (event.key === '?') {
        event.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  // A dialog asked for before its code has loaded opens once it has.
  const dialog = useLoadedAfterHydration(loadShortcutsDialog);
  return dialog ? <dialog.ShortcutsDialog open={open} onOpenChange={setOpen} /> : null;
}

import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';

const SHORTCUTS: ReadonlyArray<[keys: string, what: string]> = [
  ['Ctrl K / ⌘ K', 'Search everything'],
  ['/', "Focus this list's search"],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close a dialog'],
];

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
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Keyboard shortcuts</Dialog.Title>
          <dl className="shortcuts">
            {SHORTCUTS.map(([keys, what]) => (
              <div key={keys} className="shortcut">
                <dt>
                  <kbd>{keys}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <div className="dialog-actions">
            <Dialog.Close className="btn btn-outline">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

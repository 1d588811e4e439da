import * as Dialog from '@radix-ui/react-dialog';

const SHORTCUTS: ReadonlyArray<[keys: string, what: string]> = [
  ['Ctrl K / ⌘ K', 'Search everything'],
  ['/', "Focus this list's search"],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close a dialog'],
];

/** The list of shortcuts (`?`), on Radix's dialog: loaded by KeyboardShortcuts after hydration. */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
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

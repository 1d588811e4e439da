import * as Dialog from '@radix-ui/react-dialog';
import type { ReactElement, ReactNode } from 'react';
import { PRODUCT_TITLE } from './product.js';

// Loaded after hydration with the drawer, as the header's bell is (issue 33).
export { NotificationBell as Bell } from '../notifications/bell.js';

/** The navigation drawer of a narrow screen, on Radix's dialog: loaded by the layout after hydration. */
export function NavDrawer({
  open,
  onOpenChange,
  trigger,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The header's menu button, which opens the drawer. */
  trigger: ReactElement;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay" />
        <Dialog.Content className="drawer" aria-describedby={undefined}>
          <div className="drawer-header">
            <Dialog.Title className="drawer-title">{PRODUCT_TITLE}</Dialog.Title>
            <Dialog.Close className="btn btn-ghost" aria-label="Close navigation">
              ×
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

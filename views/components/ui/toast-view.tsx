import * as ToastPrimitive from '@radix-ui/react-toast';
import { useInRouterContext, useRevalidator } from 'react-router';
import { TOAST_DURATION_MS, type ToastViewProps } from './toast.js';

/**
 * The toast and the notifications region (F8), by Radix: loaded by Toaster after hydration. An action (a delete's
 * Undo) runs, then the page reads its data again so its change shows; this lives here, not in Toaster, to keep it
 * out of every page's first load (the root route renders Toaster, inside the router).
 */
export function ToastView({ message, dismiss }: ToastViewProps) {
  const inRouter = useInRouterContext();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {message && (
        <ToastPrimitive.Root
          key={message.id}
          className={`toast${message.variant === 'destructive' ? ' toast-destructive' : ''}`}
          onOpenChange={(open) => {
            if (!open) dismiss(message.id);
          }}
          data-testid="toast"
        >
          <ToastPrimitive.Title className="toast-title">{message.title}</ToastPrimitive.Title>
          {message.description && (
            <ToastPrimitive.Description className="toast-description">{message.description}</ToastPrimitive.Description>
          )}
          {message.action &&
            (inRouter ? <ActionReloadingPage action={message.action} /> : <ActionButton action={message.action} after={() => undefined} />)}
          <ToastPrimitive.Close className="toast-close" aria-label="Close">
            ×
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="toast-viewport" hotkey={['F8']} />
    </ToastPrimitive.Provider>
  );
}

type ToastAction = NonNullable<ToastViewProps['message']>['action'] & {};

function ActionButton({ action, after }: { action: ToastAction; after: () => unknown }) {
  return (
    <ToastPrimitive.Action
      className="btn btn-outline btn-sm toast-action"
      altText={`${action.label}: press F8 to reach the notification`}
      onClick={() => void action.run().then(after)}
    >
      {action.label}
    </ToastPrimitive.Action>
  );
}

/** Within the app's router, the page reads its data again once the action is done, so its change shows. */
function ActionReloadingPage({ action }: { action: ToastAction }) {
  const { revalidate } = useRevalidator();
  return <ActionButton action={action} after={revalidate} />;
}

import * as ToastPrimitive from '@radix-ui/react-toast';
import { useRevalidator } from 'react-router';
import { TOAST_DURATION_MS, type ToastViewProps } from './toast.js';

/**
 * The toast and the notifications region (F8), by Radix: loaded by Toaster after hydration. An action (a delete's
 * Undo) runs, then the page reads its data again so its change shows; this lives here, not in Toaster, to keep it
 * out of every page's first load (the root route renders Toaster, inside the router).
 */
export function ToastView({ message, dismiss }: ToastViewProps) {
  const { revalidate } = useRevalidator();
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
          {message.action && (
            <ToastPrimitive.Action
              className="btn btn-outline btn-sm toast-action"
              altText={`${message.action.label}: press F8 to reach the notification`}
              onClick={() => void message.action!.run().then(() => revalidate())}
            >
              {message.action.label}
            </ToastPrimitive.Action>
          )}
          <ToastPrimitive.Close className="toast-close" aria-label="Close">
            ×
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="toast-viewport" hotkey={['F8']} />
    </ToastPrimitive.Provider>
  );
}

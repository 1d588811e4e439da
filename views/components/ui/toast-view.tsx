import * as ToastPrimitive from '@radix-ui/react-toast';
import { TOAST_DURATION_MS, type ToastViewProps } from './toast.js';

/** The toast and the notifications region (F8), by Radix: loaded by Toaster after hydration. */
export function ToastView({ message, dismiss, act }: ToastViewProps) {
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
              onClick={() => act(message.action!)}
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

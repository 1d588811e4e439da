import { useSyncExternalStore } from 'react';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** A button beside the text (a delete's Undo): runs `run`, then the page's data is read again. */
  action?: ToastAction;
}

interface ToastAction {
  label: string;
  run(): Promise<void>;
}

/** At most one toast is visible (spec point 9): a new one replaces the current one. */
let current: ToastMessage | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function toast(message: Omit<ToastMessage, 'id'>): void {
  current = { ...message, id: nextId++ };
  emit();
}

function dismiss(id: number) {
  if (current?.id === id) {
    current = null;
    emit();
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const TOAST_DURATION_MS = 5000;

const loadToastView = () => import('./toast-view.js');

/** What the toast's view shows and how it closes the toast it shows. */
export interface ToastViewProps {
  message: ToastMessage | null;
  dismiss: (id: number) => void;
}

/**
 * The toast area. Its view (Radix's toast) is not part of any page's first load: it loads once the page has
 * hydrated (the server renders no toast, so neither does hydration), and a toast raised before it arrived shows
 * when it does.
 */
export function Toaster() {
  const message = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  const view = useLoadedAfterHydration(loadToastView);
  return view ? <view.ToastView message={message} dismiss={dismiss} /> : null;
}

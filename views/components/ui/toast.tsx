import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
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
  const [View, setView] = useState<ComponentType<ToastViewProps> | null>(null);
  useEffect(() => {
    let mounted = true;
    void import('./toast-view.js').then((module) => {
      if (mounted) setView(() => module.ToastView);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return View ? <View message={message} dismiss={dismiss} /> : null;
}

import { useCallback, useState } from 'react';
import { messageOf } from '@shared/api-error.js';
import { toast } from '@views/components/ui/toast.js';

/** A refusal or fault, toasted with what the server said (or `title` when it said nothing readable). */
export function toastFailure(title: string, error: unknown): void {
  toast({ title, description: messageOf(error, title), variant: 'destructive' });
}

/**
 * One action at a time for a set of controls: `pending` while it runs (the controls disable on it), and a failure
 * toasted under `failureTitle` instead of thrown, so each caller states only what succeeds.
 */
export function usePendingAction() {
  const [pending, setPending] = useState(false);
  const run = useCallback(async (failureTitle: string, action: () => Promise<void>) => {
    setPending(true);
    try {
      await action();
    } catch (error) {
      toastFailure(failureTitle, error);
    } finally {
      setPending(false);
    }
  }, []);
  return { pending, run };
}

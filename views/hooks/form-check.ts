import { useEffect, type FormEvent } from 'react';
import type { z } from 'zod';
import { firstErrorPerField, type FieldErrors } from '@shared/field-errors.js';

/**
 * A form's browser-side check: the schema the server parses the same body with, loaded on demand. zod and the
 * schemas are not part of any page's first load (docs/decisions/0060-performance-against-the-limit.md): a form
 * starts loading its check when it shows (after hydration), which is long before anyone submits it.
 */
export interface FormCheck {
  /** The schema once loaded; undefined before (or when it could not be loaded: the server checks anyway). */
  loaded(): z.ZodType | undefined;
  /** Loads the schema (once); resolves when the check can run or never will. */
  load(): Promise<void>;
}

/** A check whose schema `load` imports, e.g. `formCheck(() => import('@shared/schemas/auth.js').then((m) => m.LoginSchema))`. */
export function formCheck(load: () => Promise<z.ZodType>): FormCheck {
  let schema: z.ZodType | undefined;
  let loading: Promise<void> | undefined;
  return {
    loaded: () => schema,
    load: () =>
      (loading ??= load().then(
        (loaded) => {
          schema = loaded;
        },
        // Offline or a new deployment: the form is sent unchecked and the server's answer shows the same messages.
        () => undefined,
      )),
  };
}

/** Starts loading a form's check as the form shows. */
export function usePreloadedCheck(check: FormCheck): void {
  useEffect(() => {
    void check.load();
  }, [check]);
}

/**
 * The check of a submit before it is sent: the first message of each field when the body fails it (the submit is
 * then cancelled), null when it passes. A submit that comes before the check has loaded is held, and submitted
 * again (with the same button) once it has: the check then runs as usual.
 */
export function checkSubmit(event: FormEvent<HTMLFormElement>, check: FormCheck, body: (form: FormData) => unknown): FieldErrors | null {
  const schema = check.loaded();
  const form = event.currentTarget;
  if (!schema && !heldForms.has(form)) {
    event.preventDefault();
    heldForms.add(form);
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    void check.load().then(() => {
      form.requestSubmit(submitter instanceof HTMLElement && submitter.closest('form') === form ? submitter : null);
      heldForms.delete(form);
    });
    return null;
  }
  if (!schema) return null;
  const parsed = schema.safeParse(body(new FormData(form)));
  if (parsed.success) return null;
  event.preventDefault();
  return firstErrorPerField(parsed.error.issues);
}

/** Forms whose submit waits for their check: submitted again once it loads, then checked (or, if it failed, sent). */
const heldForms = new WeakSet<HTMLFormElement>();

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useActionData, useFetcher, useNavigation } from 'react-router';
import type { FieldErrors } from '@shared/field-errors.js';
import { checkSubmit, usePreloadedCheck, type FormCheck } from '@views/hooks/form-check.js';
import type { WriteFailure } from '../records/actions.js';
import type { WriteDone } from './actions.js';

/** The answer to a form's last post: a refused write, a dialog's success, or nothing yet. */
export type PostAnswer = WriteFailure | WriteDone | undefined;

/**
 * The state of an attachment form that posts to a route action (views/components/attachments/actions.ts). On a
 * page it posts the page itself (a <Form>, so it works without JavaScript); in a dialog (`onSaved` given) it posts
 * through a fetcher and calls `onSaved` once the write went through. Before anything is sent the body is checked
 * with the schema the server uses (`check`, loaded as the form shows): when that fails, the first message of each
 * field shows and nothing is sent; otherwise the messages of the server's answer show.
 */
export function useCheckedSubmit(check: FormCheck, bodyOf: (form: FormData) => unknown, onSaved?: () => void) {
  usePreloadedCheck(check);
  const fetcher = useFetcher<PostAnswer>();
  const navigation = useNavigation();
  const pageAnswer = useActionData<PostAnswer>();
  const inDialog = onSaved !== undefined;
  const answer = inDialog ? fetcher.data : pageAnswer;
  const pending = inDialog ? fetcher.state !== 'idle' : navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  // The browser's own check; null once the form passed it, so the answer to the last post shows instead.
  const [checked, setChecked] = useState<FieldErrors | null>(null);
  const failure = answer && 'errors' in answer && !pending ? answer : undefined;
  const errors = checked ?? failure?.errors ?? {};

  // Each success closes the dialog once, after the loaders revalidated (the fetcher is idle again).
  const handled = useRef<PostAnswer>(undefined);
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || !('ok' in fetcher.data) || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    onSaved?.();
  }, [fetcher.state, fetcher.data, onSaved]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // react-router's forms do not send a submit whose default was prevented.
    setChecked(checkSubmit(event, check, bodyOf));
  }

  return { fetcher, inDialog, errors, failure, pending, onSubmit };
}

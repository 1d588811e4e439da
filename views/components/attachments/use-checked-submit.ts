import { useState } from 'react';
import type { z } from 'zod';
import { firstErrorPerField } from '../../../src/shared/field-errors.js';

/**
 * The submit of an attachment form: the body is checked with the schema the server uses; when it fails, the first
 * message of each field is shown and nothing is sent, else `send` runs with `pending` set until it settles.
 */
export function useCheckedSubmit<B>(schema: z.ZodType, send: (body: B) => Promise<void>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function submit(body: B) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      setErrors(firstErrorPerField(parsed.error.issues));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      await send(body);
    } finally {
      setPending(false);
    }
  }

  return { errors, pending, submit };
}

import * as z from 'zod';
import { INVALID_CHARACTER, isStorableText } from '../storable-text.js';

export { INVALID_CHARACTER, invalidCharacterIn, isStorableText } from '../storable-text.js';

/**
 * z.string() with the rule as its first check; `error` is the message for a value that is not a string at all.
 * The rule aborts the checks after it, so the answer names the real problem rather than a length or format too.
 * Formats (email, …) go after it with `.pipe(…)`, so they only ever see storable text.
 */
export function text(error?: string) {
  return z.string(error === undefined ? undefined : { error }).refine(isStorableText, { message: INVALID_CHARACTER, abort: true });
}

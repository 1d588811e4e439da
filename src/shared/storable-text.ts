/**
 * The one rule for text that comes from outside (API bodies and query strings, CSV cells, synced posts): it must
 * be storable exactly as sent. Free of zod, so the browser's import screens carry it without the schemas; the
 * schemas build on it (schemas/text.ts), so the forms refuse what the API refuses, with the same message.
 *
 * - A lone surrogate (half of a UTF-16 pair, e.g. an emoji cut in two) has no UTF-8 form: each database driver
 *   silently stores U+FFFD instead, and a JSON column refuses its "\ud800" escape outright (a 500).
 * - NUL (U+0000) ends a C string: bcrypt stops reading a password at it, and other tools cut the text there.
 *
 * A whole surrogate pair (🏃) is ordinary text and passes.
 */
export const INVALID_CHARACTER = 'Contains an invalid character';

/** The rule's message inside a sentence that names the field: import row errors and sync problems. */
export const invalidCharacterIn = (label: string) => `${label} contains an invalid character`;

// eslint-disable-next-line no-control-regex -- NUL is exactly what is being refused
const UNSTORABLE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;

/** True when the text holds no lone surrogate and no NUL. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Kept apart from the list schemas, so a page reads its cursor without loading zod. */
const CURSOR_PARAMS = ['after', 'before'] as const;
const CURSOR_TEXT = /^[A-Za-z0-9_.-]{1,4100}$/;

/**
 * The cursor a Next or Previous link put in a page URL (`after` or `before`), if one is there that can be a cursor;
 * anything else is ignored, so the page number's offset places the page (the record lists and the contacts
 * directory).
 */
export function pageCursorOf(search: URLSearchParams): { after: string } | { before: string } | undefined {
  for (const param of CURSOR_PARAMS) {
    const value = search.get(param);
    if (value && CURSOR_TEXT.test(value)) return param === 'after' ? { after: value } : { before: value };
  }
  return undefined;
}

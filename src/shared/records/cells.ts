import type { FieldDef, Rule } from './define.js';

/** The longest text a URL field takes (src/shared/schemas/records/fields.ts `optionalUrl`). */
export const MAX_URL_LENGTH = 2048;
const DEFAULT_NAME_LENGTH = 255;

/** The most characters a text rule takes; undefined for a rule that is not text. */
function maxLengthOf(rule: Rule | undefined): number | undefined {
  switch (rule?.type) {
    case 'name':
      return rule.max ?? DEFAULT_NAME_LENGTH;
    case 'text':
    case 'handle':
      return rule.max;
    case 'url':
      return MAX_URL_LENGTH;
    default:
      return undefined;
  }
}

/**
 * A CSV cell as a field's value, by the field's rule, for the imports: trimmed, a handle's leading @ dropped, ''
 * as null; too long is a problem naming the column as the file spells it (`header`).
 */
export function cellValue(
  field: FieldDef,
  header: string,
  cell: string,
): { ok: true; value: string | null } | { ok: false; problem: string } {
  const trimmed = cell.trim();
  const value = field.rule?.type === 'handle' ? trimmed.replace(/^@+/, '') : trimmed;
  const max = maxLengthOf(field.rule);
  if (max !== undefined && value.length > max) return { ok: false, problem: `${header} is longer than ${max} characters` };
  return { ok: true, value: value === '' ? null : value };
}

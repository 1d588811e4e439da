/**
 * Describes a record form as data, so one form component renders and reads every record type's form and the
 * six forms cannot drift apart in how they treat lists, flags, numbers and empty values.
 */
export interface FieldOption {
  value: string;
  label: string;
}

interface BaseField {
  name: string;
  label: string;
  required?: boolean;
  hint?: string;
  placeholder?: string;
}

export type FieldSpec =
  | (BaseField & { kind: 'text' | 'url' | 'email' | 'tel' | 'date' | 'textarea' })
  /** Whole or decimal numbers; typed as text so the schema, not the browser, decides what is valid. */
  | (BaseField & { kind: 'number'; decimal?: boolean })
  /** A list of text values typed comma separated. */
  | (BaseField & { kind: 'list' })
  /** `defaultValue` (for fields the schema defaults) replaces the empty 'Not set' choice. */
  | (BaseField & { kind: 'select'; options: readonly FieldOption[]; defaultValue?: string })
  | (BaseField & { kind: 'checkbox' })
  /**
   * A list of enum values, one checkbox each. `keepStored`: the list is open (run and track types the content
   * website may add), so a stored value that is not among the options gets its own checked box and is kept.
   */
  | (BaseField & { kind: 'checkboxes'; options: readonly FieldOption[]; keepStored?: boolean });

export interface FormSection {
  title?: string;
  fields: FieldSpec[];
}

/** Select options from an enum, each reading its label from the enum's one label map (src/shared/labels.ts). */
export function enumOptions<T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>): FieldOption[] {
  return values.map((value) => ({ value, label: labels[value] }));
}

/** Splits comma separated text: trimmed, empty entries dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export type FormValue = string | boolean | string[];

/** Reads the submitted form into the body the schema parses (lists as arrays, flags as booleans). */
export function readForm<F extends Pick<FieldSpec, 'name' | 'kind'>>(form: FormData, fields: readonly F[]): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const field of fields) {
    const raw = form.get(field.name);
    const text = typeof raw === 'string' ? raw : '';
    switch (field.kind) {
      case 'list':
        values[field.name] = splitList(text);
        break;
      case 'checkbox':
        values[field.name] = raw !== null;
        break;
      case 'checkboxes':
        values[field.name] = form.getAll(field.name).filter((v): v is string => typeof v === 'string');
        break;
      default:
        values[field.name] = text;
    }
  }
  return values;
}

/** The text an input starts with for a stored value (null shows empty; lists are joined with ', '). */
export function initialText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

export const allFields = (sections: readonly FormSection[]) => sections.flatMap((section) => section.fields);

import type { RecordDef } from '@shared/records/define.js';
import { fieldOf, type NamedField } from '@shared/records/read.js';
import type { FieldOption, FieldSpec, FormSection } from './form-fields.js';

const optionsOf = (values: readonly string[], labels: Readonly<Record<string, string>>): FieldOption[] =>
  values.map((value) => ({ value, label: labels[value] ?? value }));

/** The form control of one field, from its rule (and the input it names). */
function specOf(field: NamedField): FieldSpec {
  const base = {
    name: field.name,
    label: field.label,
    ...((field.required ?? field.rule?.type === 'name') && { required: true }),
    ...(field.placeholder !== undefined && { placeholder: field.placeholder }),
    ...(field.help !== undefined && { hint: field.help }),
  };
  const rule = field.rule;
  switch (rule?.type) {
    case 'url':
      return { ...base, kind: 'url' };
    case 'date':
      return { ...base, kind: 'date' };
    case 'enum':
      return {
        ...base,
        kind: 'select',
        options: optionsOf(rule.values, rule.labels),
        ...(rule.fallback !== undefined && { defaultValue: rule.fallback }),
      };
    case 'list':
      return { ...base, kind: 'list' };
    case 'slugList':
      return { ...base, kind: 'checkboxes', options: optionsOf(rule.values, rule.labels), keepStored: true };
    case 'enumList':
      return { ...base, kind: 'checkboxes', options: optionsOf(rule.values, rule.labels) };
    case 'integer':
      return { ...base, kind: 'number' };
    case 'coordinate':
      return { ...base, kind: 'number', decimal: true };
    case 'flag':
      return { ...base, kind: 'checkbox' };
    default:
      return { ...base, kind: field.input ?? 'text' };
  }
}

/** A record type's create and edit form, from its definition: its sections and fields in the definition's order. */
export function formOf(definition: RecordDef): FormSection[] {
  return definition.form.map((section) => ({
    ...(section.title !== undefined && { title: section.title }),
    fields: section.fields.map((name) => specOf(fieldOf(definition, name))),
  }));
}

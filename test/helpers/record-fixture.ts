import type { FieldDef, TypedRecordDef } from '@shared/records/define.js';

type AnyFields = Readonly<Record<string, FieldDef>>;

/** Where a fixture field shows: the form section and detail group (by title) it ends, and the other surfaces. */
interface Placement {
  formSection: string;
  detailGroup: string;
  table?: boolean;
  export?: boolean;
  search?: boolean;
}

/**
 * A record definition with one more field, placed at the end of each surface the placement names: the way a
 * developer adds a field to a definition file, done in a test (docs/conventions.md "Add a field").
 */
export function withField<F extends AnyFields, N extends string>(
  definition: TypedRecordDef<F>,
  name: N,
  field: FieldDef,
  placement: Placement,
): TypedRecordDef<F & Record<N, FieldDef>> {
  type Name = keyof F & string;
  const add = <T>(list: readonly T[], on = true) => (on ? [...list, name as unknown as T] : [...list]);
  return {
    ...definition,
    fields: { ...definition.fields, [name]: field } as F & Record<N, FieldDef>,
    form: definition.form.map((section) =>
      section.title === placement.formSection ? { ...section, fields: add<Name>(section.fields) } : section,
    ),
    detail: definition.detail.map((group) =>
      group.title === placement.detailGroup ? { ...group, fields: add<Name>(group.fields) } : group,
    ),
    table: add<Name>(definition.table, placement.table ?? true),
    export: add(definition.export, placement.export ?? true),
    search: add(definition.search, placement.search ?? true),
  } as TypedRecordDef<F & Record<N, FieldDef>>;
}

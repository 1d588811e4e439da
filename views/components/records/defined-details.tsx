import type { ReactNode } from 'react';
import { labelOf } from '@shared/labels.js';
import type { DetailGroupFacts, FieldFacts } from '@shared/records/read.js';
import { useFormat } from '@views/hooks/use-format.js';
import { DateText, DateTimeText, ExternalLink, InfoCard, listText, multilineText } from './detail.js';

type Format = ReturnType<typeof useFormat>;

/** A detail row's value drawn by the field's shape; null when empty, so the row joins the "Empty fields" line. */
function shapedValue(field: FieldFacts, value: unknown, format: Format): ReactNode {
  const text = typeof value === 'string' ? value : null;
  const list = Array.isArray(value) ? (value as string[]) : null;
  switch (field.shape) {
    case 'date':
      return text && <DateText value={text} />;
    case 'timestamp':
      return text && <DateTimeText value={text} />;
    case 'money':
      return format.money(text);
    case 'url':
      return text && <ExternalLink href={text} />;
    case 'multiline':
      return multilineText(text);
    case 'choice':
      return text && labelOf(field.labels ?? {}, text);
    case 'choices':
      return listText(list?.map((item) => labelOf(field.labels ?? {}, item)));
    case 'list':
      return listText(list);
    default:
      return value === null || value === undefined ? null : String(value);
  }
}

/**
 * A detail page's field groups from its definition (the loader's `detailGroups`), each value drawn by its field's
 * shape unless the page draws it (`values`: a fallback name, a label the spec words its own way).
 */
export function DefinedInfoCards<T>({
  groups,
  record,
  values = {},
}: {
  groups: readonly DetailGroupFacts[];
  record: T;
  values?: Partial<Record<string, (record: T) => ReactNode>>;
}) {
  const format = useFormat();
  return (
    <>
      {groups.map((group) => (
        <InfoCard
          key={group.title}
          title={group.title}
          items={group.fields.map((field) => {
            const draw = values[field.key];
            return {
              label: field.label,
              value: draw ? draw(record) : shapedValue(field, (record as Record<string, unknown>)[field.key], format),
            };
          })}
        />
      ))}
    </>
  );
}

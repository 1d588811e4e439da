import type { ReactNode } from 'react';
import { labelOf } from '@shared/labels.js';
import type { FieldFacts, TableColumnFacts } from '@shared/records/read.js';
import { DateText, DateTimeText, ExternalLink } from './detail.js';
import { joined, MoneyText, type TableColumn } from './list-views.js';
import { CardLine } from './record-card.js';
/** A table cell drawn from a field's value by its shape (a link's text is the column's header: "Website"). */
function shapedCell(column: FieldFacts, value: unknown): ReactNode {
  const text = typeof value === 'string' ? value : null;
  switch (column.shape) {
    case 'date':
      return <DateText value={text} />;
    case 'timestamp':
      return <DateTimeText value={text} />;
    case 'money':
      return <MoneyText value={text} />;
    case 'url':
      return text && <ExternalLink href={text}>{column.label}</ExternalLink>;
    case 'choice':
      return text && labelOf(column.labels ?? {}, text);
    case 'choices':
      return joined(value as string[] | null, (item) => labelOf(column.labels ?? {}, item));
    case 'list':
      return joined(value as string[] | null);
    default:
      return value as ReactNode;
  }
}

/**
 * A list's table columns from its definition's (the loader's `tableColumns`), each cell drawn by its value's shape
 * unless the page draws it (`cells`: a name that links, a badge, two fields in one cell).
 */
export function definedColumns<T>(
  columns: readonly TableColumnFacts[],
  cells: Partial<Record<string, (item: T) => ReactNode>> = {},
): Array<TableColumn<T>> {
  return columns.map((column) => ({
    key: column.key,
    label: column.label,
    ...(column.sort ? { sort: column.sort } : {}),
    render: cells[column.key] ?? ((item: T) => shapedCell(column, (item as Record<string, unknown>)[column.key])),
  }));
}

/** A card's lines that are plain fields (the loader's `cardFields`), each drawn by its value's shape. */
export function DefinedCardLines({ fields, item }: { fields: readonly FieldFacts[]; item: object }) {
  return (
    <>
      {fields.map((field) => (
        <CardLine key={field.key}>{shapedCell(field, (item as Record<string, unknown>)[field.key])}</CardLine>
      ))}
    </>
  );
}

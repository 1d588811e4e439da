import type { ReactNode } from 'react';
import { labelOf, valueLabel } from '@shared/labels.js';
import { displayOf, type RecordDef } from '@shared/records/define.js';
import { fieldOf, tableFields, type NamedField } from '@shared/records/index.js';
import { DateText, DateTimeText, ExternalLink, listText, multilineText, type InfoItem } from './detail.js';
import { joined, MoneyText, type TableColumn } from './list-views.js';
import type { useFormat } from '@views/hooks/use-format.js';

type Format = ReturnType<typeof useFormat>;

/**
 * The detail page's field groups, the table's columns and the cards' plain lines of a record type, read from its
 * definition (src/shared/records/). A page writes by hand only what is not a plain field.
 */

type Values = object;
const valueOf = (record: Values, name: string): unknown => (record as Record<string, unknown>)[name];
const text = (value: unknown) => (value === null || value === undefined ? null : String(value as string | number));
const enumLabel = (field: NamedField, value: string) =>
  field.rule?.type === 'enum' ? labelOf(field.rule.labels, value) : valueLabel(value);

/** One field's value as the detail page shows it. */
function detailValue(field: NamedField, value: unknown, format: Format): ReactNode {
  switch (displayOf(field)) {
    case 'link':
      return typeof value === 'string' && value !== '' ? <ExternalLink href={value} /> : value === '' ? '' : null;
    case 'money':
      return format.money(value as string | null);
    case 'date':
      return typeof value === 'string' && value !== '' ? <DateText value={value} /> : (text(value) ?? null);
    case 'dateTime':
      return <DateTimeText value={value as string | null} />;
    case 'multiline':
      return multilineText(value as string | null);
    case 'label':
      return typeof value === 'string' ? enumLabel(field, value) : null;
    case 'list':
      return listText(value as string[] | null);
    default:
      return text(value);
  }
}

/** The items of one detail group (by its title) of a record. */
export function detailItems(definition: RecordDef, group: string, record: Values, format: Format): InfoItem[] {
  const fields = definition.detail.find((entry) => entry.title === group)?.fields ?? [];
  return fields.map((name) => {
    const field = fieldOf(definition, name);
    return { label: field.detailLabel ?? field.label, value: detailValue(field, valueOf(record, name), format) };
  });
}

/** One field's table cell. */
function tableCell(field: NamedField, value: unknown): ReactNode {
  switch (field.tableDisplay ?? displayOf(field)) {
    case 'link':
      return typeof value === 'string' && value !== '' ? (
        <ExternalLink href={value}>{field.tableLabel ?? field.label}</ExternalLink>
      ) : (
        (value as ReactNode)
      );
    case 'money':
      return <MoneyText value={value as string | null} />;
    case 'date':
      return <DateText value={value as string | null} empty="" />;
    case 'dateTime':
      return <DateTimeText value={value as string | null} empty="" />;
    case 'list':
      return joined(value as string[] | null, (item) => enumLabel(field, item));
    case 'label':
      return typeof value === 'string' ? enumLabel(field, value) : (value as ReactNode);
    default:
      return value as ReactNode;
  }
}

/**
 * The table's columns: the definition's, each with its header and sort key; the first links to the record.
 * `custom` renders the cells that are not a plain field (a badge, a composed name).
 */
export function tableColumnsOf<T extends Values & { id: number }>(
  definition: RecordDef,
  detailHref: (id: number) => string,
  custom: Partial<Record<string, (item: T) => ReactNode>> = {},
): Array<TableColumn<T>> {
  return tableFields(definition).map((field, index) => {
    const render =
      custom[field.name] ??
      (index === 0
        ? (item: T) => <a href={detailHref(item.id)}>{text(valueOf(item, field.name))}</a>
        : (item: T) => tableCell(field, valueOf(item, field.name)));
    return {
      key: field.name,
      label: field.tableLabel ?? field.label,
      ...(field.table?.sort && { sort: field.name }),
      render,
    };
  });
}

/** The card's plain lines, in the definition's order. */
export function cardValues(definition: RecordDef, record: Values): Array<{ key: string; value: string | null }> {
  return (definition.card ?? []).map((name) => ({ key: name, value: text(valueOf(record, name)) }));
}

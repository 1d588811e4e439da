import { useId, type ReactNode } from 'react';
import { Form, Link, useNavigate } from 'react-router';
import { COMMON_LAYOUTS, type ListLayout } from '@shared/list-options.js';
import { sortOrderValue, splitSortOrder, type SortDirection } from '@shared/list-options.js';
import { useFormat } from '@views/hooks/use-format.js';

/** One column a list's table can show; `sort` names the list's sort key when its header sorts. */
export interface TableColumn<T> {
  key: string;
  label: string;
  sort?: string;
  render(item: T): ReactNode;
}

/** How a list sorts: its choices (the sort menu) and each sort's own direction (a header's first click). */
export interface ListSorting {
  options: ReadonlyArray<{ value: string; label: string }>;
  defaultDir(sort: string): SortDirection;
}

const LAYOUT_LABELS: Record<ListLayout, string> = { cards: 'Cards', table: 'Table', calendar: 'Calendar' };

/**
 * Cards | Table (| Calendar on events): one button per layout the list has (`layoutsOf`). A post to the list's own
 * action remembers the choice for the user and goes to that view, so it works without JavaScript and the next first
 * paint is right.
 */
export function LayoutSwitch({ layout, layouts = COMMON_LAYOUTS }: { layout: ListLayout; layouts?: readonly ListLayout[] }) {
  return (
    <Form method="post" replace preventScrollReset className="layout-switch" aria-label="View">
      <input type="hidden" name="intent" value="view" />
      {layouts.map((option) => (
        <button
          key={option}
          type="submit"
          name="view"
          value={option}
          aria-pressed={option === layout}
          className={`btn btn-sm ${option === layout ? 'btn-primary' : 'btn-outline'}`}
        >
          {LAYOUT_LABELS[option]}
        </button>
      ))}
    </Form>
  );
}

/** Which columns the table shows: a disclosure with one checkbox per column, remembered for the user. */
export function ColumnPicker<T>({ columns, shown }: { columns: ReadonlyArray<TableColumn<T>>; shown: readonly string[] }) {
  return (
    <details className="column-picker">
      <summary className="btn btn-outline btn-sm">Columns</summary>
      <Form method="post" replace preventScrollReset className="column-picker-menu">
        <input type="hidden" name="intent" value="columns" />
        <fieldset>
          <legend className="visually-hidden">Columns to show</legend>
          {columns.map((column) => (
            <label key={column.key} className="column-picker-option">
              <input type="checkbox" name="column" value={column.key} defaultChecked={shown.includes(column.key)} /> {column.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-primary btn-sm">
          Apply
        </button>
      </Form>
    </details>
  );
}

/** Where a list goes sorted by `sort` in `dir` (page 1, the rest of its query kept). */
export type SortHref = (sort: string, dir: SortDirection) => string;

const DATE_WORDS = ['earliest first', 'latest first'] as const;
const AMOUNT_WORDS = ['low to high', 'high to low'] as const;
/** How each direction of a sort reads ([ascending, descending]); a text field reads A–Z / Z–A. */
const DIRECTION_WORDS: Record<string, readonly [string, string]> = {
  eventStartDate: DATE_WORDS,
  wordpressLastSync: DATE_WORDS,
  lastNewsletterInclusion: DATE_WORDS,
  lastCampaignEndDate: DATE_WORDS,
  totalAdvertisingSpend: AMOUNT_WORDS,
  totalPayments: AMOUNT_WORDS,
  membershipCount: AMOUNT_WORDS,
  featuredRace: ['regular first', 'featured first'],
};
/** Orders named as a whole rather than by their field ([ascending, descending]); upcoming has one direction. */
const ORDER_NAMES: Record<string, readonly [string, string?]> = {
  newest: ['Oldest first', 'Newest first'],
  upcoming: ['Upcoming first'],
  updatedAt: ['Least recently updated first', 'Recently updated first'],
};

/** One entry of the sort menu: a sort key with its direction, under one name ("Newest first", "Name Z–A"). */
interface SortOrder {
  sort: string;
  dir: SortDirection;
  label: string;
}

/** The named orders of a list: each sort in its own direction first, then the other (where it has one). */
function sortOrdersOf(sorting: ListSorting): SortOrder[] {
  return sorting.options.flatMap(({ value: sort, label }) => {
    const first = sorting.defaultDir(sort);
    const dirs: SortDirection[] = [first, first === 'asc' ? 'desc' : 'asc'];
    return dirs.flatMap((dir) => {
      const at = dir === 'asc' ? 0 : 1;
      const named = ORDER_NAMES[sort];
      const words = DIRECTION_WORDS[sort];
      const text = named ? named[at] : words ? `${label}: ${words[at]}` : `${label} ${dir === 'asc' ? 'A–Z' : 'Z–A'}`;
      return text ? [{ sort, dir, label: text }] : [];
    });
  });
}

/**
 * The sort menu, one select of named orders (each a sort with its direction), so the order shown is the order
 * applied; tables also toggle the direction on their headers. A GET form on the list's URL, so it works without
 * JavaScript too (it then sends `sort=key:dir`); `keep` are the list's other parameters that such a form carries.
 */
export function SortMenu({
  listPath,
  current,
  sorting,
  sortHref,
  keep,
}: {
  listPath: string;
  current: { sort: string; dir: SortDirection };
  sorting: ListSorting;
  sortHref: SortHref;
  keep: Record<string, string>;
}) {
  const navigate = useNavigate();
  const id = useId();
  const orders = sortOrdersOf(sorting);
  // A sort with one direction (upcoming) is shown as that order whatever the URL's direction.
  const chosen =
    orders.find((order) => order.sort === current.sort && order.dir === current.dir) ?? orders.find((order) => order.sort === current.sort);
  return (
    <form method="get" action={listPath} className="sort-menu" onSubmit={(event) => event.preventDefault()}>
      {Object.entries(keep)
        .filter(([, value]) => value !== '')
        .map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
      <label htmlFor={`${id}-sort`}>Sort by</label>
      <select
        id={`${id}-sort`}
        name="sort"
        className="input"
        value={chosen ? sortOrderValue(chosen.sort, chosen.dir) : undefined}
        onChange={(event) => {
          const [sort, dir] = splitSortOrder(event.target.value);
          if (sort && dir) void navigate(sortHref(sort, dir as SortDirection), { preventScrollReset: true });
        }}
      >
        {orders.map((order) => (
          <option key={sortOrderValue(order.sort, order.dir)} value={sortOrderValue(order.sort, order.dir)}>
            {order.label}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn btn-outline btn-sm">
          Sort
        </button>
      </noscript>
    </form>
  );
}

export interface RecordTableProps<T> {
  label: string;
  current: { sort: string; dir: SortDirection };
  sortHref: SortHref;
  sorting: ListSorting;
  columns: ReadonlyArray<TableColumn<T>>;
  items: readonly T[];
  itemKey(item: T): number;
  /** The first cell of each row (its selection checkbox), and its header. */
  lead?: { header: ReactNode; cell(item: T): ReactNode };
}

/** The dense table of a list: one row per record; a sortable header is a link to the list sorted by it. */
export function RecordTable<T>({ label, current: query, sortHref, sorting, columns, items, itemKey, lead }: RecordTableProps<T>) {
  return (
    // TableScroll's markup, written out: the lists' first load carries no extra component for it.
    <div className="table-scroll-frame">
      <div className="table-scroll">
        <table className="records-table" aria-label={label}>
          <thead>
            <tr>
              {lead && <th scope="col">{lead.header}</th>}
              {columns.map((column) => {
                const active = column.sort !== undefined && column.sort === query.sort;
                const ariaSort = active ? (query.dir === 'asc' ? 'ascending' : 'descending') : column.sort ? 'none' : undefined;
                const nextDir: SortDirection = active
                  ? query.dir === 'asc'
                    ? 'desc'
                    : 'asc'
                  : column.sort
                    ? sorting.defaultDir(column.sort)
                    : 'asc';
                return (
                  <th key={column.key} scope="col" aria-sort={ariaSort}>
                    {column.sort ? (
                      <Link className="sort-header" preventScrollReset to={sortHref(column.sort, nextDir)}>
                        {column.label}
                        <span aria-hidden="true">{active ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                      </Link>
                    ) : (
                      column.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={itemKey(item)}>
                {lead && <td>{lead.cell(item)}</td>}
                {columns.map((column) => (
                  <td key={column.key}>{column.render(item)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const SORT_LABELS: Record<string, string> = { newest: 'Newest first', upcoming: 'Upcoming first', updatedAt: 'Last updated' };

/**
 * A record list's sorting: its sort keys (the loader's `sorts`, read from the type's definition), labelled like the
 * table's headers.
 */
export function sortingOf<T>(sorts: Readonly<Record<string, SortDirection>>, columns: ReadonlyArray<TableColumn<T>>): ListSorting {
  return {
    options: Object.keys(sorts).map((value) => ({
      value,
      label: SORT_LABELS[value] ?? columns.find((c) => c.sort === value)?.label ?? value,
    })),
    defaultDir: (sort) => sorts[sort] ?? 'asc',
  };
}

/** Money in the request's locale (the same on the server and in the browser). */
export function MoneyText({ value }: { value: string | null | undefined }) {
  return <>{useFormat().money(value)}</>;
}

/** A list value (run types, tags) as one comma-separated cell, each value through `label` when given. */
export const joined = (values: readonly string[] | null | undefined, label: (value: string) => string = (value) => value) =>
  (values ?? []).map(label).join(', ');

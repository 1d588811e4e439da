import { useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useFetcher, useLocation } from 'react-router';
import type { ListView } from '@shared/list-query.js';
import { filterParamOf } from '@shared/list-options.js';
import { MAX_BULK_IDS } from '@shared/choices.js';
import { DEFAULT_SORT } from '@shared/list-options.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { dataSource, withQuery } from '@views/data/source.js';
import { toast } from '../ui/toast.js';
import { ConfirmDeleteButton, RESTORE_HINT } from './delete-dialog.js';

/**
 * Which rows of a list are selected for a bulk action: ids ticked on any page, or "all N matching" the list's
 * search and filters. Shift-click ticks (or unticks) the range from the last box clicked on this page. `scope` is the
 * list's search and filters as one text: a new search or filter starts afresh.
 */
export function useSelection(pageIds: readonly number[], scope: string) {
  const [selected, setSelected] = useState<readonly number[]>([]);
  const [allMatching, setAllMatching] = useState(false);
  const anchor = useRef<number | null>(null);
  const [shownScope, setShownScope] = useState(scope);
  if (shownScope !== scope) {
    setShownScope(scope);
    setSelected([]);
    setAllMatching(false);
  }

  const toggle = (id: number, range: boolean) => {
    const on = !selected.includes(id);
    const from = anchor.current === null ? -1 : pageIds.indexOf(anchor.current);
    const to = pageIds.indexOf(id);
    const ids = range && from !== -1 && to !== -1 ? pageIds.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
    anchor.current = id;
    setAllMatching(false);
    setSelected((current) => (on ? [...current, ...ids.filter((i) => !current.includes(i))] : current.filter((i) => !ids.includes(i))));
  };
  const clear = () => {
    setSelected([]);
    setAllMatching(false);
  };
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const togglePage = () => {
    setAllMatching(false);
    setSelected((current) => (pageSelected ? current.filter((id) => !pageIds.includes(id)) : [...new Set([...current, ...pageIds])]));
  };
  return { selected, allMatching, selectAllMatching: () => setAllMatching(true), toggle, clear, pageSelected, togglePage };
}

export type Selection = ReturnType<typeof useSelection>;

/** A record's selection box; shift-click selects the range from the last box clicked. */
export function SelectBox({ selection, id, label }: { selection: Selection; id: number; label: string }) {
  return (
    <input
      type="checkbox"
      className="records-select"
      aria-label={`Select ${label}`}
      checked={selection.allMatching || selection.selected.includes(id)}
      onChange={() => undefined}
      onClick={(event: MouseEvent<HTMLInputElement>) => selection.toggle(id, event.shiftKey)}
    />
  );
}

/** The export URL of a list's query (every page), narrowed to `ids` when given. */
export function exportHref(kind: RecordType, query: ListView, ids?: readonly number[]): string {
  const filterParam = filterParamOf(kind);
  return withQuery(`/api/export/${RECORD_TYPE_INFO[kind].segment}`, {
    q: query.q,
    ...(filterParam ? { [filterParam]: query.filter } : {}),
    sort: query.sort === DEFAULT_SORT ? undefined : query.sort,
    dir: query.sort === DEFAULT_SORT && query.dir === 'desc' ? undefined : query.dir,
    ids: ids?.join(','),
  });
}

/** Where the next read of a list starts: a list answer's `next` cursor (record lists), or an offset (the directory). */
export interface ReadFrom {
  offset: number;
  after?: string;
}

/**
 * Every id of a list, read page by page (100 a read) up to the bulk limit; `readPage` reads one page from where
 * the last one ended. A list that answers a `next` cursor is walked with it, so each read costs what the first does.
 */
export async function collectIds(
  readPage: (limit: number, from: ReadFrom) => Promise<{ items: ReadonlyArray<{ id: number }>; next?: string | null }>,
) {
  const ids: number[] = [];
  let from: ReadFrom = { offset: 0 };
  while (ids.length < MAX_BULK_IDS) {
    const page = await readPage(100, from);
    ids.push(...page.items.map((item) => item.id));
    if (page.items.length < 100 || page.next === null) break;
    from = page.next === undefined ? { offset: from.offset + 100 } : { offset: 0, after: page.next };
  }
  return ids;
}

/** Every id matching a record list's search and filter (at most the bulk limit), walked with the list's cursor. */
export async function matchingRecordIds(kind: RecordType, search: string): Promise<number[]> {
  // The list URL's rules (and zod with them) load when first needed, not with the page.
  const { readListQuery } = await import('@shared/list-query.js');
  const read = readListQuery(kind, new URLSearchParams(search), 'page');
  if (!read.ok) throw new Error(read.message);
  const { after: _after, before: _before, ...query } = read.query;
  return collectIds((limit, from) => dataSource(null).listRecords(kind, { ...query, limit, ...from }));
}

/**
 * The selection's ids for a bulk action, read from the list when "all N matching" is selected; null (after a toast
 * saying why) when more than the bulk limit are selected. `done` says what the action does ('deleted').
 */
export type SelectedIds = (done: string) => Promise<number[] | null>;

export interface BulkBarProps {
  selection: Selection;
  total: number;
  pageSize: number;
  /** How one and several of the list's rows are called ('brand', 'brands'). */
  noun: string;
  pluralNoun: string;
  /** Every id matching the list's search and filters (at most the bulk limit). */
  matchingIds(): Promise<number[]>;
  /** The CSV download of the given ids (or of the whole list when none are given). */
  exportHref(ids?: readonly number[]): string;
  /** The list's own bulk actions, placed after Delete selected (the contacts directory's tags and audience). */
  actions?(selectedIds: SelectedIds, count: number): ReactNode;
  /** False when a delete is for good (contacts): records wait in Recently deleted, and the question says so. */
  restorable?: boolean;
}

/** What can be done with a selection: delete (one confirmation naming the count), export, the list's own actions, or clear it. */
export function BulkBar({
  selection,
  total,
  pageSize,
  noun,
  pluralNoun,
  matchingIds,
  exportHref,
  actions,
  restorable = true,
}: BulkBarProps) {
  const fetcher = useFetcher();
  const location = useLocation();
  const count = selection.allMatching ? total : selection.selected.length;
  if (count === 0) return null;
  const words = count === 1 ? `1 ${noun}` : `${count} ${pluralNoun}`;

  const selectedIds: SelectedIds = async (done) => {
    if (count > MAX_BULK_IDS) {
      toast({ title: `At most ${MAX_BULK_IDS} ${pluralNoun} can be ${done} at a time`, variant: 'destructive' });
      return null;
    }
    return selection.allMatching ? matchingIds() : [...selection.selected];
  };

  async function deleteSelected() {
    const ids = await selectedIds('deleted');
    if (!ids) return;
    await fetcher.submit({ intent: 'bulk-delete', ids: ids.join(',') }, { method: 'post', action: location.pathname + location.search });
    selection.clear();
  }

  return (
    <div className="toolbar bulk-bar" role="region" aria-label="Selected records">
      <span role="status">{selection.allMatching ? `All ${total} matching selected` : `${count} selected`}</span>
      {!selection.allMatching && selection.pageSelected && total > pageSize && (
        <button type="button" className="btn btn-outline btn-sm" onClick={selection.selectAllMatching}>
          Select all {total} matching
        </button>
      )}
      <ConfirmDeleteButton
        small
        label="Delete selected"
        question={`Are you sure you want to delete ${words}? ${restorable ? RESTORE_HINT : 'This cannot be undone.'}`}
        onConfirm={deleteSelected}
      />
      <a className="btn btn-outline btn-sm" href={exportHref(selection.allMatching ? undefined : selection.selected)} download>
        Export selected
      </a>
      {actions?.(selectedIds, count)}
      <button type="button" className="btn btn-outline btn-sm" onClick={selection.clear}>
        Clear selection
      </button>
    </div>
  );
}

/** The head cell of a table with selection boxes: ticks (or unticks) every row of this page. */
export function SelectPageBox({ selection }: { selection: Selection }) {
  return (
    <input
      type="checkbox"
      aria-label="Select all on this page"
      checked={selection.allMatching || selection.pageSelected}
      onChange={selection.togglePage}
    />
  );
}

import { useRef, useState, type MouseEvent } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { readListQuery, filterParamOf, type ListView } from '@shared/list-query.js';
import { MAX_BULK_IDS } from '@shared/schemas/bulk.js';
import { DEFAULT_SORT } from '@shared/schemas/records.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { dataSource, withQuery } from '@views/data/source.js';
import { toast } from '../ui/toast.js';
import { ConfirmDeleteButton } from './delete-dialog.js';

/**
 * Which records of a list are selected for a bulk action: ids ticked on any page, or "all N matching" the list's
 * search and filter. Shift-click ticks (or unticks) the range from the last box clicked on this page. A new search
 * or filter starts afresh.
 */
export function useSelection(pageIds: readonly number[], query: ListView) {
  const [selected, setSelected] = useState<readonly number[]>([]);
  const [allMatching, setAllMatching] = useState(false);
  const anchor = useRef<number | null>(null);
  const [scope, setScope] = useState(`${query.q}\n${query.filter}`);
  if (scope !== `${query.q}\n${query.filter}`) {
    setScope(`${query.q}\n${query.filter}`);
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

/** Every id matching the list's search and filter, read page by page from the list API (at most the bulk limit). */
async function matchingIds(kind: RecordType, search: string): Promise<number[]> {
  const read = readListQuery(kind, new URLSearchParams(search), 'page');
  if (!read.ok) throw new Error(read.message);
  const ids: number[] = [];
  for (let offset = 0; ids.length < MAX_BULK_IDS; offset += 100) {
    const page = await dataSource(null).listRecords(kind, { ...read.query, limit: 100, offset });
    ids.push(...page.items.map((item) => item.id));
    if (page.items.length < 100) break;
  }
  return ids;
}

/** What can be done with a selection: delete (one confirmation naming the count), export, or clear it. */
export function BulkBar({
  kind,
  selection,
  total,
  pageSize,
  query,
}: {
  kind: RecordType;
  selection: Selection;
  total: number;
  pageSize: number;
  query: ListView;
}) {
  const fetcher = useFetcher();
  const location = useLocation();
  const count = selection.allMatching ? total : selection.selected.length;
  if (count === 0) return null;
  const { pluralNoun, noun } = RECORD_TYPE_INFO[kind];
  const words = count === 1 ? `1 ${noun}` : `${count} ${pluralNoun}`;

  async function deleteSelected() {
    if (count > MAX_BULK_IDS) {
      toast({ title: `At most ${MAX_BULK_IDS} ${pluralNoun} can be deleted at a time`, variant: 'destructive' });
      return;
    }
    const ids = selection.allMatching ? await matchingIds(kind, location.search) : selection.selected;
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
        question={`Are you sure you want to delete ${words}? This cannot be undone.`}
        onConfirm={deleteSelected}
      />
      <a className="btn btn-outline btn-sm" href={exportHref(kind, query, selection.allMatching ? undefined : selection.selected)} download>
        Export selected
      </a>
      <button type="button" className="btn btn-outline btn-sm" onClick={selection.clear}>
        Clear selection
      </button>
    </div>
  );
}

import { useCanWrite } from '@views/hooks/use-session.js';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useNavigation } from 'react-router';
import { useInAppLinkClicks } from '../ui/in-app-links.js';
import { Alert, EmptyState, Input } from '../ui/primitives.js';
import type { ListView } from '@shared/list-query.js';
import { DEFAULT_SORT, type SortDirection } from '@shared/list-options.js';
import { listPageHref, pageCount, type PageCursor } from './list-query.js';
import type { ListDisplay } from './loaders.js';
import { ColumnPicker, LayoutSwitch, RecordTable, SortMenu, type ListSorting, type TableColumn } from './list-views.js';
import { BulkBar, exportHref, matchingRecordIds, SelectBox, SelectPageBox, useSelection } from './selection.js';
import { RECORD_TYPE_INFO, recordTypeOfSegment } from '@shared/record-types.js';
import { layoutsOf, listNameOf } from '@shared/list-options.js';

interface FilterOption {
  value: string;
  label: string;
}

interface ListFilter {
  /** The query parameter name, shared with the API ('filter', 'type'). */
  param: string;
  label: string;
  /** The "all" option comes first and maps to an absent parameter. */
  options: readonly FilterOption[];
}

export interface RecordListPageProps<T> {
  title: string;
  listPath: string;
  searchLabel: string;
  searchPlaceholder: string;
  filter?: ListFilter;
  /** Buttons at the top right ('Bulk Import', 'Add Brand'). */
  actions?: ReactNode;
  items: T[];
  total: number;
  /** Cursors of the next and previous pages (null at either end). */
  next: string | null;
  prev: string | null;
  query: ListView;
  /** Why this search could not be run: shown in place of the results, with the search box kept to fix it. */
  problem?: string;
  pageSize: number;
  itemKey(item: T): number;
  /** How a record is named to a screen reader ("Select Stride Shoes"). */
  itemLabel(item: T): string;
  renderCard(item: T): ReactNode;
  /** Every column the table view can show; `display.columns` picks which. */
  columns: ReadonlyArray<TableColumn<T>>;
  sorting: ListSorting;
  /** The user's remembered layout and columns. */
  display: ListDisplay;
  /** The empty state; `searching` says whether a search or filter narrowed the list. */
  empty(searching: boolean): { title: string; hint: ReactNode };
}

const SEARCH_DEBOUNCE_MS = 350;

/**
 * The search box and filter are a GET form on the list's own URL, so they work before hydration too. Once
 * hydrated, typing searches after a short pause (replacing the history entry so Back skips the keystrokes);
 * Enter and a filter change search at once. Either way the page number resets and empty values stay out of the URL.
 */
function SearchBar({
  listPath,
  label,
  placeholder,
  filter,
  query,
  children,
}: Pick<RecordListPageProps<unknown>, 'listPath' | 'filter' | 'query'> & { label: string; placeholder: string; children: ReactNode }) {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [text, setText] = useState(query.q);
  const [choice, setChoice] = useState(query.filter);
  // The controls follow the URL when it changes from outside (Back, a link). When the URL is the search this box
  // just sent, the text stays as it is: the user may have typed on (or a trailing space) since.
  const [sent, setSent] = useState<string | null>(null);
  const [shown, setShown] = useState(query);
  if (shown.q !== query.q || shown.filter !== query.filter) {
    setShown(query);
    if (query.q !== sent) setText(query.q);
    setChoice(query.filter);
  }
  useEffect(() => () => clearTimeout(timer.current), []);

  const go = (next: { q: string; filter: string }, replace: boolean) => {
    clearTimeout(timer.current);
    setSent(next.q.trim());
    const href = listPageHref(
      listPath,
      { ...query, q: next.q.trim(), filter: next.filter === 'all' ? '' : next.filter, page: 1 },
      filter?.param,
    );
    void navigate(href, { replace, preventScrollReset: true });
  };

  return (
    <div className="list-toolbar">
      <form
        id={SEARCH_FORM_ID}
        method="get"
        action={listPath}
        role="search"
        className="toolbar records-search"
        onSubmit={(event) => {
          event.preventDefault();
          go({ q: text, filter: choice }, false);
        }}
      >
        {/* The sort stays when a search is sent without JavaScript. */}
        {query.sort !== DEFAULT_SORT && <input type="hidden" name="sort" value={query.sort} />}
        {query.sort !== DEFAULT_SORT && <input type="hidden" name="dir" value={query.dir} />}
        <label htmlFor="records-search" className="visually-hidden">
          {label}
        </label>
        <Input
          id="records-search"
          type="search"
          name="q"
          value={text}
          placeholder={placeholder}
          autoComplete="off"
          className="records-search-input"
          onChange={(event) => {
            const value = event.target.value;
            setText(value);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => go({ q: value, filter: choice }, true), SEARCH_DEBOUNCE_MS);
          }}
        />
        <button type="submit" className="btn btn-outline records-search-submit">
          Search
        </button>
      </form>
      {/*
        The filter, layout, sort, columns and export: a row under the search box on a desktop; on a phone they fold
        behind one "Filters & sort" button beside it and open as a sheet, so the first records show without
        scrolling. A <details>, so the sheet opens before the JavaScript has loaded too.
      */}
      <details className="list-options">
        <summary className="btn btn-outline list-options-toggle">Filters &amp; sort</summary>
        <div className="toolbar records-view-bar list-options-body">
          {filter && (
            <>
              <label htmlFor="records-filter" className="visually-hidden">
                {filter.label}
              </label>
              {/* In the options, but sent with the search form (its `form` attribute). */}
              <select
                id="records-filter"
                form={SEARCH_FORM_ID}
                name={filter.param}
                className="input records-filter"
                value={choice || 'all'}
                onChange={(event) => {
                  setChoice(event.target.value);
                  go({ q: text, filter: event.target.value }, false);
                }}
              >
                {filter.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </>
          )}
          {children}
        </div>
      </details>
    </div>
  );
}

const SEARCH_FORM_ID = 'records-search-form';

/**
 * Previous / Next links, each carrying the cursor of the row its page precedes or follows, so following them costs
 * what the first page costs at any depth; the page number only names the page. Page 1 is linked by number.
 */
function Pagination({
  listPath,
  query,
  total,
  pageSize,
  filterParam,
  next,
  prev,
}: {
  listPath: string;
  query: ListView;
  total: number;
  pageSize: number;
  filterParam?: string;
  next: string | null;
  prev: string | null;
}) {
  const pages = pageCount(total, pageSize);
  if (pages <= 1 && query.page <= 1) return null;
  const href = (page: number, cursor?: PageCursor) => listPageHref(listPath, { ...query, page }, filterParam, cursor);
  const first = (query.page - 1) * pageSize + 1;
  const last = Math.min(total, query.page * pageSize);
  const previousPage = Math.min(query.page - 1, pages);
  return (
    <nav className="pagination" aria-label="Pagination">
      {query.page > 1 ? (
        <Link
          className="btn btn-outline btn-sm"
          to={previousPage > 1 && prev ? href(previousPage, { before: prev }) : href(previousPage)}
          rel="prev"
        >
          Previous
        </Link>
      ) : (
        <span className="btn btn-outline btn-sm" aria-disabled="true">
          Previous
        </span>
      )}
      <span className="pagination-status" aria-current="page">
        Page {query.page} of {pages}
        {total > 0 && first <= last && (
          <span className="muted">
            {' '}
            ({first}–{last} of {total})
          </span>
        )}
      </span>
      {next ? (
        <Link className="btn btn-outline btn-sm" to={href(query.page + 1, { after: next })} rel="next">
          Next
        </Link>
      ) : (
        <span className="btn btn-outline btn-sm" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}

/** The one list screen the six record types share: header, search and filter, card grid, empty state, pages. */
export function RecordListPage<T>(props: RecordListPageProps<T>) {
  const navigation = useNavigation();
  const searching = Boolean(props.query.q || props.query.filter);
  const loadingHere = navigation.state === 'loading' && navigation.location?.pathname === props.listPath;
  const empty = props.empty(searching);
  const followLink = useInAppLinkClicks();
  const kind = recordTypeOfSegment(props.listPath.slice(1))!;
  const selection = useSelection(props.items.map(props.itemKey), `${props.query.q}\n${props.query.filter}`);
  const location = useLocation();
  const sortHref = (sort: string, dir: SortDirection) =>
    listPageHref(props.listPath, { ...props.query, sort, dir, page: 1 }, props.filter?.param);
  const canWrite = useCanWrite();
  return (
    // Not an interactive element: it only hands the clicks of the card links inside it to the router.
    <div className="page records-list" onClick={followLink}>
      <div className="page-header">
        <h1>{props.title}</h1>
        {props.actions && canWrite && <div className="card-actions">{props.actions}</div>}
      </div>
      <SearchBar
        listPath={props.listPath}
        label={props.searchLabel}
        placeholder={props.searchPlaceholder}
        filter={props.filter}
        query={props.query}
      >
        <LayoutSwitch layout={props.display.layout} layouts={layoutsOf(listNameOf(kind))} />
        <SortMenu
          listPath={props.listPath}
          current={props.query}
          sorting={props.sorting}
          sortHref={sortHref}
          keep={{ q: props.query.q, ...(props.filter ? { [props.filter.param]: props.query.filter } : {}) }}
        />
        {props.display.layout === 'table' && <ColumnPicker columns={props.columns} shown={props.display.columns} />}
        <a className="btn btn-outline btn-sm" href={exportHref(kind, props.query)} download>
          Export CSV
        </a>
      </SearchBar>
      <BulkBar
        selection={selection}
        total={props.total}
        pageSize={props.pageSize}
        noun={RECORD_TYPE_INFO[kind].noun}
        pluralNoun={RECORD_TYPE_INFO[kind].pluralNoun}
        matchingIds={() => matchingRecordIds(kind, location.search)}
        exportHref={(ids) => exportHref(kind, props.query, ids)}
      />
      {!props.problem && (
        <p className="muted records-count" role="status">
          {props.total === 1 ? '1 result' : `${props.total} results`}
        </p>
      )}
      <div aria-busy={loadingHere || undefined} className="records-results">
        {props.problem ? (
          <Alert variant="destructive">{props.problem}</Alert>
        ) : props.items.length === 0 && props.total > 0 ? (
          // Past the last page (a shared link, or the last card of a page was deleted): offer the real last page.
          <div className="empty-state">
            <h2>This page is empty</h2>
            <p>
              <Link
                to={listPageHref(props.listPath, { ...props.query, page: pageCount(props.total, props.pageSize) }, props.filter?.param)}
              >
                Go to the last page
              </Link>
            </p>
          </div>
        ) : props.items.length === 0 ? (
          <EmptyState title={empty.title}>{empty.hint}</EmptyState>
        ) : props.display.layout === 'table' ? (
          <RecordTable
            label={props.title}
            current={props.query}
            sortHref={sortHref}
            sorting={props.sorting}
            columns={props.columns.filter((column) => props.display.columns.includes(column.key))}
            items={props.items}
            itemKey={props.itemKey}
            lead={{
              header: <SelectPageBox selection={selection} />,
              cell: (item) => <SelectBox selection={selection} id={props.itemKey(item)} label={props.itemLabel(item)} />,
            }}
          />
        ) : (
          <ul className="card-grid records-grid" aria-label={props.title}>
            {props.items.map((item) => (
              <li key={props.itemKey(item)} className="records-grid-item">
                <SelectBox selection={selection} id={props.itemKey(item)} label={props.itemLabel(item)} />
                {props.renderCard(item)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Pagination
        listPath={props.listPath}
        query={props.query}
        total={props.total}
        pageSize={props.pageSize}
        filterParam={props.filter?.param}
        next={props.next}
        prev={props.prev}
      />
    </div>
  );
}

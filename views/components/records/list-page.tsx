import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { EmptyState, Input } from '../ui/primitives.js';
import { listPageHref, pageCount, type ListQuery } from './list-query.js';

export interface FilterOption {
  value: string;
  label: string;
}

export interface ListFilter {
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
  query: ListQuery;
  pageSize: number;
  itemKey(item: T): number;
  renderCard(item: T): ReactNode;
  /** The empty state; `searching` says whether a search or filter narrowed the list. */
  empty(searching: boolean): { title: string; hint: ReactNode };
}

const SEARCH_DEBOUNCE_MS = 350;

/**
 * The search box and filter are a GET form on the list's own URL, so they work before hydration too. Typing
 * searches after a short pause (replacing the history entry so Back skips the keystrokes); Enter searches at once.
 */
function SearchBar({ listPath, label, placeholder, filter, query }: Pick<RecordListPageProps<unknown>, 'listPath' | 'filter' | 'query'> & { label: string; placeholder: string }) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The box follows the URL when it changes from outside (Back, a link), and keeps what is being typed otherwise.
  const [text, setText] = useState(query.q);
  const [shownQuery, setShownQuery] = useState(query.q);
  if (shownQuery !== query.q) {
    setShownQuery(query.q);
    setText(query.q);
  }
  useEffect(() => () => clearTimeout(timer.current), []);

  const submitNow = (replace: boolean) => {
    clearTimeout(timer.current);
    if (formRef.current) void submit(formRef.current, { replace, preventScrollReset: true });
  };

  return (
    <Form ref={formRef} method="get" action={listPath} role="search" className="toolbar records-search" onSubmit={() => clearTimeout(timer.current)}>
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
          setText(event.target.value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => submitNow(true), SEARCH_DEBOUNCE_MS);
        }}
      />
      {filter && (
        <>
          <label htmlFor="records-filter" className="visually-hidden">
            {filter.label}
          </label>
          <select id="records-filter" name={filter.param} className="input records-filter" value={query.filter || 'all'} onChange={() => submitNow(false)}>
            {filter.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </>
      )}
      <button type="submit" className="btn btn-outline">
        Search
      </button>
    </Form>
  );
}

export function Pagination({ listPath, query, total, pageSize, filterParam }: { listPath: string; query: ListQuery; total: number; pageSize: number; filterParam?: string }) {
  const pages = pageCount(total, pageSize);
  if (pages <= 1 && query.page <= 1) return null;
  const href = (page: number) => listPageHref(listPath, { ...query, page }, filterParam);
  const first = (query.page - 1) * pageSize + 1;
  const last = Math.min(total, query.page * pageSize);
  return (
    <nav className="pagination" aria-label="Pagination">
      {query.page > 1 ? (
        <Link className="btn btn-outline btn-sm" to={href(Math.min(query.page - 1, pages))} rel="prev">
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
      {query.page < pages ? (
        <Link className="btn btn-outline btn-sm" to={href(query.page + 1)} rel="next">
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
  return (
    <div className="page records-list">
      <div className="page-header">
        <h1>{props.title}</h1>
        {props.actions && <div className="card-actions">{props.actions}</div>}
      </div>
      <SearchBar listPath={props.listPath} label={props.searchLabel} placeholder={props.searchPlaceholder} filter={props.filter} query={props.query} />
      <p className="muted records-count" role="status">
        {props.total === 1 ? '1 result' : `${props.total} results`}
      </p>
      <div aria-busy={loadingHere || undefined} className="records-results">
        {props.items.length === 0 ? (
          <EmptyState title={empty.title}>{empty.hint}</EmptyState>
        ) : (
          <ul className="card-grid records-grid" aria-label={props.title}>
            {props.items.map((item) => (
              <li key={props.itemKey(item)} className="records-grid-item">
                {props.renderCard(item)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Pagination listPath={props.listPath} query={props.query} total={props.total} pageSize={props.pageSize} filterParam={props.filter?.param} />
    </div>
  );
}

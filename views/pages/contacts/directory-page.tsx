import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { messageOf, statusOf } from '@shared/api-error.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO } from '@shared/record-types.js';
import type { DirectoryContact } from '@shared/schemas/contacts-directory.js';
import { CONTACT_SORTS, PAGE_SIZE, splitSortOrder, type ContactSort, type SortDirection } from '@shared/list-options.js';
import type { ListPage } from '@shared/schemas/records.js';
import { pageCursorOf } from '@shared/page-cursor.js';
import { fullName } from '@views/components/attachments/paths.js';
import { OwnerLink } from '@views/components/attachments/owner-link.js';
import { announce, failed, intentAction, sameLocation, type IntentHandler } from '@views/components/records/actions.js';
import { bulkDeleteIntent, postedIds, preferenceIntent } from '@views/components/records/list-actions.js';
import { BulkBar, collectIds, SelectBox, SelectPageBox, useSelection } from '@views/components/records/selection.js';
import { ContactBulkActions, type AudienceAnswer } from './bulk-actions.js';
import { pageCount, type PageCursor } from '@views/components/records/list-query.js';
import {
  ColumnPicker,
  joined,
  LayoutSwitch,
  RecordTable,
  SortMenu,
  type ListSorting,
  type TableColumn,
} from '@views/components/records/list-views.js';
import { listDisplayOf, type ListDisplay } from '@views/components/records/loaders.js';
import { Alert, Badge, EmptyState, Input } from '@views/components/ui/primitives.js';
import { dataSource, gated, withQuery } from '@views/data/source.js';

/** The directory's own URL parameters (the API's, with `page` for limit and offset). */
const PARAMS = ['q', 'ownerType', 'tag', 'primary', 'sort', 'dir'] as const;
type DirectoryParams = Record<(typeof PARAMS)[number], string> & { page: number };

interface DirectoryData extends ListPage<DirectoryContact> {
  params: DirectoryParams;
  display: ListDisplay;
  problem?: string;
}

function paramsOf(search: URLSearchParams): DirectoryParams {
  const pageText = search.get('page') ?? '';
  const page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
  const params = Object.fromEntries(PARAMS.map((name) => [name, search.get(name) ?? ''])) as Record<(typeof PARAMS)[number], string>;
  // The sort menu's form (without JavaScript) sends one named order, `sort=key:dir`.
  const [sort, dir] = splitSortOrder(params.sort);
  return { ...params, sort: sort ?? '', dir: dir ?? params.dir, page };
}

/** The parameters that are set (an empty one stays out of the URL). */
const withoutBlanks = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));

export const loader = gated(async ({ request, context }: LoaderFunctionArgs): Promise<DirectoryData> => {
  const ds = dataSource(context);
  const params = paramsOf(new URL(request.url).searchParams);
  const api = withoutBlanks(Object.fromEntries(PARAMS.map((name) => [name, params[name]])));
  // Next and Previous links carry a cursor beside the page number, which then only names the page.
  const cursor = pageCursorOf(new URL(request.url).searchParams);
  const pendingDisplay = listDisplayOf(ds, 'contacts');
  try {
    const [list, display] = await Promise.all([
      ds.contactsDirectory({ ...api, limit: String(PAGE_SIZE), ...(cursor ?? { offset: String((params.page - 1) * PAGE_SIZE) }) }),
      pendingDisplay,
    ]);
    // A Previous link whose cursor had less than a page before it was answered with the first page.
    const page = cursor && 'before' in cursor && list.prev === null ? 1 : params.page;
    return { ...list, params: { ...params, page }, display };
  } catch (error) {
    // A refused parameter shows on the page with the search box kept, as the record lists do.
    if (statusOf(error) !== 400) throw error;
    const refused = {
      items: [],
      total: 0,
      next: null,
      prev: null,
      params,
      display: await pendingDisplay,
      problem: messageOf(error, 'This search could not be run'),
    };
    return data(refused, { status: 400 }) as unknown as DirectoryData;
  }
});

const contactsWord = (count: number) => (count === 1 ? '1 contact' : `${count} contacts`);

/** Adds or removes the typed tags on the selected contacts, then shows the list again. */
const bulkTagsIntent: IntentHandler = async ({ request, context }, form) => {
  const change = { add: String(form.get('add') ?? ''), remove: String(form.get('remove') ?? '') };
  try {
    const { updated } = await dataSource(context).bulkTagContacts(postedIds(form), change);
    announce(context, `Tags changed on ${contactsWord(updated)}`);
  } catch (error) {
    return failed(context, 'Could not change the tags of the selected contacts', error);
  }
  return sameLocation(request);
};

/** Adds the selected contacts to a Mailchimp audience; the dialog shows the report it hands back. */
const bulkMailchimpIntent: IntentHandler = async ({ context }, form) => {
  try {
    const result = await dataSource(context).addContactsToAudience(postedIds(form), String(form.get('audienceId') ?? ''));
    announce(
      context,
      `Mailchimp: ${result.added} added, ${result.updated} updated, ${result.skipped} skipped, ${result.failed.length} failed`,
    );
    const answer: AudienceAnswer = { mailchimp: result };
    return answer;
  } catch (error) {
    return failed(context, 'Could not add the selected contacts to the audience', error);
  }
};

export const action = intentAction({
  view: preferenceIntent('contacts', 'view'),
  columns: preferenceIntent('contacts', 'columns'),
  'bulk-delete': bulkDeleteIntent((context, ids) => dataSource(context).bulkDeleteContacts(ids), {
    deleted: (count) => (count === 1 ? 'Contact deleted successfully' : `${count} contacts deleted`),
    failedTitle: 'Could not delete the selected contacts',
  }),
  'bulk-tags': bulkTagsIntent,
  'bulk-mailchimp': bulkMailchimpIntent,
});

/** A directory URL; a Next or Previous link carries its `cursor` (the page number then only names the page). */
const href = (params: DirectoryParams, change: Partial<DirectoryParams>, cursor?: PageCursor) => {
  const next = { ...params, ...change };
  return withQuery('/contacts', { ...next, ...cursor, page: next.page > 1 ? next.page : undefined });
};

const ownerLink = (contact: DirectoryContact) => <OwnerLink owner={contact.owner} />;

const columns: Array<TableColumn<DirectoryContact>> = [
  { key: 'name', label: 'Name', sort: 'name', render: (c) => <Link to={`/contacts/${c.id}`}>{fullName(c)}</Link> },
  { key: 'email', label: 'Email', sort: 'email', render: (c) => c.email },
  { key: 'phone', label: 'Phone', render: (c) => c.phone },
  { key: 'jobTitle', label: 'Job title', sort: 'jobTitle', render: (c) => c.jobTitle },
  { key: 'owner', label: 'Contact of', render: ownerLink },
  { key: 'isPrimary', label: 'Primary', render: (c) => (c.isPrimary ? <Badge tone="info">Primary</Badge> : '') },
  { key: 'mailchimpTags', label: 'Tags', render: (c) => joined(c.mailchimpTags) },
];

const SORT_LABELS: Record<ContactSort, string> = {
  newest: 'Newest first',
  name: 'Name',
  email: 'Email',
  jobTitle: 'Job title',
  updatedAt: 'Last updated',
};
const sorting: ListSorting = {
  options: (Object.keys(CONTACT_SORTS) as ContactSort[]).map((value) => ({ value, label: SORT_LABELS[value] })),
  defaultDir: (sort) => CONTACT_SORTS[sort as ContactSort] ?? 'asc',
};

/** Every contact of every owner: search, filters, sort, cards or table, each naming and linking its owner. */
export function Component() {
  const { items, total, next, prev, params, display, problem } = useLoaderData() as DirectoryData;
  const sort = (params.sort || 'newest') as ContactSort;
  const current = { sort, dir: (params.dir || CONTACT_SORTS[sort] || 'desc') as SortDirection };
  const sortHref = (next: string, dir: SortDirection) => href(params, { sort: next, dir, page: 1 });
  const pages = pageCount(total, PAGE_SIZE);
  const filters = { q: params.q, ownerType: params.ownerType, tag: params.tag, primary: params.primary };
  const selection = useSelection(
    items.map((contact) => contact.id),
    Object.values(filters).join('\n'),
  );
  const listed = withoutBlanks({ ...filters, sort: params.sort, dir: params.dir });
  const exportHref = (ids?: readonly number[]) => withQuery('/api/export/contacts', { ...listed, ids: ids?.join(',') });
  const matchingIds = () =>
    collectIds((limit, { offset, after }) =>
      dataSource(null).contactsDirectory({ ...listed, limit: String(limit), ...(after ? { after } : { offset: String(offset) }) }),
    );
  return (
    <div className="page records-list">
      <div className="page-header">
        <h1>Contacts</h1>
      </div>
      <form method="get" action="/contacts" role="search" className="toolbar records-search">
        <label htmlFor="records-search" className="visually-hidden">
          Search contacts
        </label>
        <Input
          id="records-search"
          type="search"
          name="q"
          defaultValue={params.q}
          placeholder="Search contacts by name, email, phone, job title or tag..."
          className="records-search-input"
        />
        <label htmlFor="contacts-owner-type" className="visually-hidden">
          Owner type
        </label>
        <select id="contacts-owner-type" name="ownerType" className="input records-filter" defaultValue={params.ownerType}>
          <option value="">All owners</option>
          {CONTACT_OWNER_TYPES.map((type) => (
            <option key={type} value={type}>
              {RECORD_TYPE_INFO[type].plural}
            </option>
          ))}
        </select>
        <label htmlFor="contacts-tag" className="visually-hidden">
          Tag
        </label>
        <Input id="contacts-tag" name="tag" defaultValue={params.tag} placeholder="Tag" className="contacts-tag-input" />
        <label htmlFor="contacts-primary" className="visually-hidden">
          Primary
        </label>
        <select id="contacts-primary" name="primary" className="input records-filter" defaultValue={params.primary}>
          <option value="">Primary or not</option>
          <option value="true">Primary only</option>
          <option value="false">Not primary</option>
        </select>
        {params.sort && <input type="hidden" name="sort" value={params.sort} />}
        {params.dir && <input type="hidden" name="dir" value={params.dir} />}
        <button type="submit" className="btn btn-outline">
          Search
        </button>
      </form>
      <div className="toolbar records-view-bar">
        <LayoutSwitch layout={display.layout} />
        <SortMenu
          listPath="/contacts"
          current={current}
          sorting={sorting}
          sortHref={sortHref}
          keep={{ q: params.q, ownerType: params.ownerType, tag: params.tag, primary: params.primary }}
        />
        {display.layout === 'table' && <ColumnPicker columns={columns} shown={display.columns} />}
        <a className="btn btn-outline btn-sm" href={exportHref()} download>
          Export CSV
        </a>
      </div>
      <BulkBar
        restorable={false}
        selection={selection}
        total={total}
        pageSize={PAGE_SIZE}
        noun="contact"
        pluralNoun="contacts"
        matchingIds={matchingIds}
        exportHref={exportHref}
        actions={(selectedIds, count) => <ContactBulkActions selectedIds={selectedIds} count={count} onDone={selection.clear} />}
      />
      {problem ? (
        <Alert variant="destructive">{problem}</Alert>
      ) : (
        <p className="muted records-count" role="status">
          {total === 1 ? '1 result' : `${total} results`}
        </p>
      )}
      {!problem && items.length === 0 ? (
        <EmptyState title="No contacts found">Contacts are added on the page of the record they belong to.</EmptyState>
      ) : display.layout === 'table' ? (
        <RecordTable
          label="Contacts"
          current={current}
          sortHref={sortHref}
          sorting={sorting}
          columns={columns.filter((column) => display.columns.includes(column.key))}
          items={items}
          itemKey={(c) => c.id}
          lead={{
            header: <SelectPageBox selection={selection} />,
            cell: (contact) => <SelectBox selection={selection} id={contact.id} label={fullName(contact)} />,
          }}
        />
      ) : (
        <ul className="card-grid records-grid" aria-label="Contacts">
          {items.map((contact) => (
            <li key={contact.id} className="records-grid-item">
              <SelectBox selection={selection} id={contact.id} label={fullName(contact)} />
              <article className="card record-card records-card" data-testid="contact-card">
                <h2 className="records-card-title">
                  <Link to={`/contacts/${contact.id}`}>{fullName(contact)}</Link>
                </h2>
                <div className="records-card-body">
                  <p className="records-card-line">Contact of {ownerLink(contact)}</p>
                  {contact.jobTitle && <p className="records-card-line">{contact.jobTitle}</p>}
                  {contact.email && <p className="records-card-line">{contact.email}</p>}
                  {contact.phone && <p className="records-card-line">{contact.phone}</p>}
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      {(pages > 1 || params.page > 1) && (
        <nav className="pagination" aria-label="Pagination">
          {params.page > 1 && (
            <Link
              className="btn btn-outline btn-sm"
              to={
                params.page > 2 && prev
                  ? href(params, { page: params.page - 1 }, { before: prev })
                  : href(params, { page: params.page - 1 })
              }
              rel="prev"
            >
              Previous
            </Link>
          )}
          <span className="pagination-status" aria-current="page">
            Page {params.page} of {pages}
          </span>
          {next && (
            <Link className="btn btn-outline btn-sm" to={href(params, { page: params.page + 1 }, { after: next })} rel="next">
              Next
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

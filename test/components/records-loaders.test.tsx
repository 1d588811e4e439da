import { detailGroupFacts, recordDefinition, SORTS, tableColumnFacts } from '@shared/records/index.js';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '@shared/api-error.js';
import type { LoaderFunctionArgs } from 'react-router';
import { getOrNull, listLoader, loadDetail, NO_ATTACHMENTS } from '@views/components/records/loaders.js';

/** The brand definition's field groups, which every brand detail load hands its page. */
const detailGroups = detailGroupFacts(recordDefinition('brand'));
import { gated, type DataSource } from '@views/data/source.js';
import type { Contact } from '@shared/schemas/attachments.js';
import type { Brand, RecordDetail } from '@shared/schemas/records.js';
import { fakeDataSource } from '../helpers/fake-data-source.js';
import { type RecordType } from '@shared/record-types.js';
import { DEFAULT_PREFERENCES } from '@shared/schemas/preferences.js';

const serverError = () => new HttpError(500, '', 'Server Error');
const brand = { id: 4, brandName: 'Stride' } as unknown as Brand;

describe('record loaders', () => {
  it('answers null for a 404 and rethrows anything else', async () => {
    await expect(getOrNull(fakeDataSource().getRecord('brand', 9))).resolves.toBeNull();
    await expect(getOrNull(Promise.reject(serverError()))).rejects.toThrow('500');
  });

  it('makes no request at all for id 0 or a non-numeric id', async () => {
    const getRecord = vi.fn(fakeDataSource().getRecord);
    const ds = fakeDataSource({ getRecord });
    await expect(loadDetail(ds, 'brand', '0')).resolves.toEqual({ id: 0, record: null, attachments: NO_ATTACHMENTS, detailGroups });
    await expect(loadDetail(ds, 'brand', 'abc')).resolves.toEqual({ id: 0, record: null, attachments: NO_ATTACHMENTS, detailGroups });
    expect(getRecord).not.toHaveBeenCalled();
  });

  it('loads the record with its contacts, payments and files', async () => {
    const contact = { id: 1, firstName: 'Jo' } as Contact;
    const ds = fakeDataSource({
      getRecord: async <K extends RecordType>(kind: K, id: number) => {
        expect([kind, id]).toEqual(['brand', 4]);
        return brand as RecordDetail<K>;
      },
      contactsOf: async (ownerType, ownerId) => (ownerType === 'brand' && ownerId === 4 ? [contact] : []),
      paymentsOf: async () => ({ items: [], total: 0, totalAmount: '0.00' }),
      filesOf: async () => [],
    });
    const detail = await loadDetail(ds, 'brand', '4');
    expect(detail.record).toEqual(brand);
    expect(detail.attachments.contacts).toEqual([contact]);
  });

  it("ignores a missing record's attachment failures, but not an existing record's", async () => {
    const missing = await loadDetail(fakeDataSource({ contactsOf: () => Promise.reject(serverError()) }), 'brand', '4');
    expect(missing).toEqual({ id: 4, record: null, attachments: NO_ATTACHMENTS, detailGroups });
    const broken = fakeDataSource({
      getRecord: async <K extends RecordType>() => brand as RecordDetail<K>,
      contactsOf: () => Promise.reject(serverError()),
      paymentsOf: async () => ({ items: [], total: 0, totalAmount: '0.00' }),
      filesOf: async () => [],
    });
    await expect(loadDetail(broken, 'brand', '4')).rejects.toThrow('500');
  });
});

describe('page loaders and refused reads', () => {
  const signedIn = { dataSource: fakeDataSource(), signedIn: true };
  const args = (context: unknown) => ({ request: new Request('http://x/brands'), params: {}, context }) as unknown as LoaderFunctionArgs;

  it('turns a 4xx read into that status with the API message, never a 500', async () => {
    const refused = gated(async () => {
      throw new HttpError(403, '{"message":"Not yours","code":"forbidden"}', 'Forbidden');
    });
    const thrown = await refused(args(signedIn)).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ data: 'Not yours', init: { status: 403 } });
  });

  it('lets server failures through as they are', async () => {
    const failure = new HttpError(500, '', 'Server Error');
    const failing = gated(async () => {
      throw failure;
    });
    await expect(failing(args(signedIn))).rejects.toBe(failure);
  });

  const listArgs = (url: string, ds: DataSource) =>
    ({ request: new Request(url), params: {}, context: { dataSource: ds, signedIn: true } }) as unknown as LoaderFunctionArgs;

  it('answers a search the API would refuse with an empty list, the message and status 400, without reading', async () => {
    const listRecords = vi.fn(fakeDataSource().listRecords);
    const result = await listLoader('brand')(listArgs(`http://x/brands?q=${'x'.repeat(201)}`, fakeDataSource({ listRecords })));
    expect(result).toMatchObject({
      data: { items: [], total: 0, problem: 'Search text must be at most 200 characters', query: { q: 'x'.repeat(201) } },
      init: { status: 400 },
    });
    expect(listRecords).not.toHaveBeenCalled();
  });

  it('answers a search the server refuses the same way', async () => {
    const refusing = fakeDataSource({
      listRecords: () => Promise.reject(new HttpError(400, '{"message":"Too broad","code":"validation_failed"}', 'Bad Request')),
    });
    const result = await listLoader('brand')(listArgs('http://x/brands?q=long', refusing));
    expect(result).toMatchObject({ data: { items: [], total: 0, problem: 'Too broad', query: { q: 'long' } }, init: { status: 400 } });
  });

  it('hands the parsed page query to the data source as it is', async () => {
    const listRecords = vi.fn(async () => ({ items: [], total: 0, next: null, prev: null }));
    const result = await listLoader('event')(
      listArgs('http://x/events?q=%20trail%20&filter=featured&page=3&limit=7', fakeDataSource({ listRecords })),
    );
    expect(listRecords).toHaveBeenCalledWith('event', {
      q: 'trail',
      filter: 'featured',
      sort: 'newest',
      dir: 'desc',
      limit: 24,
      offset: 48,
    });
    expect(result).toEqual({
      items: [],
      total: 0,
      next: null,
      prev: null,
      query: { q: 'trail', filter: 'featured', sort: 'newest', dir: 'desc', page: 3 },
      display: { layout: 'cards', columns: DEFAULT_PREFERENCES['events.columns'] },
      tableColumns: tableColumnFacts(recordDefinition('event')),
      cardFields: [],
      sorts: SORTS.event,
    });
  });

  it("reads the page after a Next link's cursor, keeping its page number only to show", async () => {
    const listRecords = vi.fn(async () => ({ items: [], total: 60, next: 'n.x', prev: 'p.x' }));
    const result = await listLoader('brand')(listArgs('http://x/brands?after=abc.def&page=3', fakeDataSource({ listRecords })));
    expect(listRecords).toHaveBeenCalledWith('brand', expect.objectContaining({ after: 'abc.def', offset: 0, limit: 24 }));
    expect(result).toMatchObject({ next: 'n.x', prev: 'p.x', query: { page: 3 } });
  });

  it("shows page 1 when a Previous link's cursor had less than a page before it", async () => {
    const listRecords = vi.fn(async () => ({ items: [], total: 60, next: 'n.x', prev: null }));
    const result = await listLoader('brand')(listArgs('http://x/brands?before=abc.def&page=3', fakeDataSource({ listRecords })));
    expect(listRecords).toHaveBeenCalledWith('brand', expect.objectContaining({ before: 'abc.def', offset: 0 }));
    expect(result).toMatchObject({ query: { page: 1 } });
  });

  it('ignores a cursor that cannot be one in a page URL, falling back to the page number', async () => {
    const listRecords = vi.fn(async () => ({ items: [], total: 60, next: null, prev: null }));
    await listLoader('brand')(listArgs('http://x/brands?after=%3Cscript%3E&page=2', fakeDataSource({ listRecords })));
    const query = (listRecords.mock.calls[0] as unknown as [string, { after?: string; offset: number }])[1];
    expect(query.after).toBeUndefined();
    expect(query.offset).toBe(24);
  });
});

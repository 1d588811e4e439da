import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../src/shared/api-error.js';
import type { LoaderFunctionArgs } from 'react-router';
import { getOrNull, listLoader, loadDetail, NO_ATTACHMENTS } from '../../views/components/records/loaders.js';
import { gated, type DataSource } from '../../views/data/source.js';

/** A DataSource answering by path prefix; anything unknown is a 404 like the API's. */
function fakeSource(routes: Record<string, unknown>) {
  const get = vi.fn(async (path: string): Promise<unknown> => {
    const key = Object.keys(routes).find((prefix) => path.startsWith(prefix));
    if (key === undefined) throw new HttpError(404, '{"message":"Not found","code":"not_found"}', 'Not Found');
    const value = routes[key];
    if (value instanceof Error) throw value;
    return value;
  });
  // The loaders only call get(); its generic result type is whatever each route above holds.
  return { session: vi.fn(), get: get as unknown as DataSource['get'] & typeof get };
}

describe('record loaders', () => {
  it('answers null for a 404 and rethrows anything else', async () => {
    await expect(getOrNull(fakeSource({}), '/api/brands/9')).resolves.toBeNull();
    const failing = fakeSource({ '/api/brands/9': new HttpError(500, '', 'Server Error') });
    await expect(getOrNull(failing, '/api/brands/9')).rejects.toThrow('500');
  });

  it('makes no request at all for id 0 or a non-numeric id', async () => {
    const ds = fakeSource({});
    await expect(loadDetail(ds, '/api/brands', 'brand', '0')).resolves.toEqual({ id: 0, record: null, attachments: NO_ATTACHMENTS });
    await expect(loadDetail(ds, '/api/brands', 'brand', 'abc')).resolves.toEqual({ id: 0, record: null, attachments: NO_ATTACHMENTS });
    expect(ds.get).not.toHaveBeenCalled();
  });

  it('loads the record with its contacts, payments and files', async () => {
    const contact = { id: 1, firstName: 'Jo' };
    const ds = fakeSource({
      '/api/brands/4': { id: 4, brandName: 'Stride' },
      '/api/contacts/brand/4': [contact],
      '/api/payments': { items: [], total: 0, totalAmount: '0.00' },
      '/api/files/brand/4': [],
    });
    const detail = await loadDetail(ds, '/api/brands', 'brand', '4');
    expect(detail.record).toEqual({ id: 4, brandName: 'Stride' });
    expect(detail.attachments.contacts).toEqual([contact]);
  });

  it("ignores a missing record's attachment failures, but not an existing record's", async () => {
    const missing = await loadDetail(fakeSource({}), '/api/brands', 'brand', '4');
    expect(missing).toEqual({ id: 4, record: null, attachments: NO_ATTACHMENTS });
    const broken = fakeSource({ '/api/brands/4': { id: 4 }, '/api/contacts/': new HttpError(500, '', 'Server Error') });
    await expect(loadDetail(broken, '/api/brands', 'brand', '4')).rejects.toThrow('500');
  });
});

describe('page loaders and refused reads', () => {
  const signedIn = { dataSource: fakeSource({}), signedIn: true };
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

  it('answers a refused list search with an empty list, the message and status 400', async () => {
    const ds = fakeSource({ '/api/brands': new HttpError(400, '{"message":"Search text must be at most 200 characters","code":"validation_failed"}', 'Bad Request') });
    const loader = listLoader({ apiPath: '/api/brands', pageSize: 24 });
    const result = await loader({ request: new Request('http://x/brands?q=long'), params: {}, context: { dataSource: ds, signedIn: true } } as unknown as LoaderFunctionArgs);
    expect(result).toMatchObject({
      data: { items: [], total: 0, problem: 'Search text must be at most 200 characters', query: { q: 'long' } },
      init: { status: 400 },
    });
  });
});

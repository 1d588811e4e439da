import type { Request as ExpressRequest } from 'express';
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact } from '../../src/services/contacts/service.js';
import { createRecord } from '../../src/services/records/service.js';
import { createUser } from '../../src/services/users/service.js';
import type { PublicUser } from '../../src/shared/schemas/auth.js';
import { serverDataSource } from '../../src/ssr/data-source.js';
import { ownerContactLoader } from '../../views/pages/contacts/loaders.js';
import { action as addBrand } from '../../views/pages/brands/add-page.js';
import { action as deleteBrandFromList } from '../../views/pages/brands/list-page.js';
import type { ServerLoaderContext } from '../../views/data/source.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

/**
 * Route loaders and actions called directly with the server's context, as the static handler calls them: the
 * services do the work in-process, no browser and no HTTP in between.
 */
describe('route loaders and actions on the server', () => {
  let t: TestApp;
  let user: PublicUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.ctx, { email: 'actions@example.org', password: TEST_PASSWORD, firstName: 'Ada', lastName: 'Action' });
  });
  afterAll(async () => t.close());

  /** The server's route context for a request of `signedInAs` (the DataSource only reads req.ctx and req.user). */
  function serverContext(signedInAs: PublicUser | undefined): ServerLoaderContext {
    const req = { ctx: t.ctx, user: signedInAs } as unknown as ExpressRequest;
    return { dataSource: serverDataSource(req), signedIn: Boolean(signedInAs) };
  }
  const post = (url: string, fields: Record<string, string>) => new Request(url, { method: 'POST', body: new URLSearchParams(fields) });
  const actionArgs = (request: Request, context: ServerLoaderContext, params: Record<string, string> = {}) => ({ request, params, context }) as unknown as ActionFunctionArgs;
  const brandCount = async () => Number((await t.ctx.db('brands').count({ n: '*' }).first())?.n);

  it('creates a brand from form data and redirects to it', async () => {
    const result: unknown = await addBrand(actionArgs(post('http://x/brands/add', { brandName: 'Direct Brand', industryCategory: 'Shoes' }), serverContext(user)));
    expect(result).toBeInstanceOf(Response);
    const location = (result as Response).headers.get('Location') ?? '';
    const id = Number(/^\/brands\/(\d+)$/.exec(location)?.[1]);
    const row = await t.ctx.db('brands').where({ id }).first();
    expect(row).toMatchObject({ brandName: 'Direct Brand', industryCategory: 'Shoes', createdBy: user.id });
  });

  it("answers invalid form data with the field's message and status 400, and writes nothing", async () => {
    const before = await brandCount();
    const result = await addBrand(actionArgs(post('http://x/brands/add', { brandName: ' ' }), serverContext(user)));
    expect(result).toMatchObject({
      data: { title: 'Failed to create brand', errors: { brandName: 'Brand name is required' }, toasted: false },
      init: { status: 400 },
    });
    expect(await brandCount()).toBe(before);
  });

  it('refuses a signed-out post before reading it', async () => {
    const before = await brandCount();
    const thrown = await addBrand(actionArgs(post('http://x/brands/add', { brandName: 'Anon' }), serverContext(undefined))).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ init: { status: 401 } });
    expect(await brandCount()).toBe(before);
  });

  it('deletes from the list and comes back to the same list URL', async () => {
    const brand = await createRecord(t.ctx, { userId: user.id, source: 'web' }, 'brand', { brandName: 'Doomed' });
    const result: unknown = await deleteBrandFromList(actionArgs(post('http://x/brands?q=doom&page=2', { intent: 'delete', id: String(brand.id), confirmed: 'yes' }), serverContext(user)));
    expect((result as Response).headers.get('Location')).toBe('/brands?q=doom&page=2');
    expect(await t.ctx.db('brands').where({ id: brand.id }).first()).toBeUndefined();
  });

  it("does not find another owner's contact on an owner's contact edit page", async () => {
    const actor = { userId: user.id, source: 'web' as const };
    const event = await createRecord(t.ctx, actor, 'event', { eventName: 'Owner Run' });
    const brand = await createRecord(t.ctx, actor, 'brand', { brandName: 'Other Owner' });
    const contact = await createContact(t.ctx, actor, { firstName: 'Bo', lastName: 'Brand', entityType: 'brand', entityId: brand.id });
    const load = (ownerPath: string, params: Record<string, string>) =>
      ownerContactLoader({ request: new Request(`http://x${ownerPath}/contacts/${contact.id}/edit`), params, context: serverContext(user) } as unknown as LoaderFunctionArgs);

    // Saving the form would move the contact to this event, so the page must say it does not exist.
    await expect(load(`/events/${event.id}`, { eventId: String(event.id), contactId: String(contact.id) })).resolves.toMatchObject({
      data: { contact: null, found: false, mode: 'edit' },
      init: { status: 404 },
    });
    await expect(load(`/brands/${brand.id}`, { brandId: String(brand.id), contactId: String(contact.id) })).resolves.toMatchObject({
      contact: { id: contact.id },
      found: true,
    });
  });
});

import type { Request as ExpressRequest } from 'express';
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact, getContact, listContacts } from '@services/contacts/service.js';
import { getPayment, listPayments } from '@services/payments/service.js';
import { createRecord, getRecord } from '@services/records/service.js';
import { createUser } from '@services/users/service.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import { serverDataSource } from '@ssr/data-source.js';
import { contactDetailAction, contactEditAction, ownerContactAction } from '@views/components/attachments/actions.js';
import { ownerContactLoader } from '@views/pages/contacts/loaders.js';
import { action as brandDetailAction } from '@views/pages/brands/detail-page.js';
import { action as addBrand } from '@views/pages/brands/add-page.js';
import { action as deleteBrandFromList } from '@views/pages/brands/list-page.js';
import type { ServerLoaderContext } from '@views/data/source.js';
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
  const actionArgs = (request: Request, context: ServerLoaderContext, params: Record<string, string> = {}) =>
    ({ request, params, context }) as unknown as ActionFunctionArgs;
  const brandCount = async () => Number((await t.ctx.db('brands').count({ n: '*' }).first())?.n);

  it('creates a brand from form data and redirects to it', async () => {
    const result: unknown = await addBrand(
      actionArgs(post('http://x/brands/add', { brandName: 'Direct Brand', industryCategory: 'Shoes' }), serverContext(user)),
    );
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
    const thrown = await addBrand(actionArgs(post('http://x/brands/add', { brandName: 'Anon' }), serverContext(undefined))).catch(
      (error: unknown) => error,
    );
    expect(thrown).toMatchObject({ init: { status: 401 } });
    expect(await brandCount()).toBe(before);
  });

  it('deletes from the list and comes back to the same list URL', async () => {
    const brand = await createRecord(t.ctx, { userId: user.id, source: 'web', role: 'staff' }, 'brand', { brandName: 'Doomed' });
    const result: unknown = await deleteBrandFromList(
      actionArgs(post('http://x/brands?q=doom&page=2', { intent: 'delete', id: String(brand.id), confirmed: 'yes' }), serverContext(user)),
    );
    expect((result as Response).headers.get('Location')).toBe('/brands?q=doom&page=2');
    expect(await t.ctx.db('brands').where({ id: brand.id }).first()).toBeUndefined();
  });

  it("does not find another owner's contact on an owner's contact edit page", async () => {
    const actor = { userId: user.id, source: 'web' as const, role: 'staff' as const };
    const event = await createRecord(t.ctx, actor, 'event', { eventName: 'Owner Run' });
    const brand = await createRecord(t.ctx, actor, 'brand', { brandName: 'Other Owner' });
    const contact = await createContact(t.ctx, actor, { firstName: 'Bo', lastName: 'Brand', entityType: 'brand', entityId: brand.id });
    const load = (ownerPath: string, params: Record<string, string>) =>
      ownerContactLoader({
        request: new Request(`http://x${ownerPath}/contacts/${contact.id}/edit`),
        params,
        context: serverContext(user),
      } as unknown as LoaderFunctionArgs);

    // Saving the form would move the contact to this event, so the page must say it does not exist.
    await expect(load(`/events/${event.id}`, { id: String(event.id), contactId: String(contact.id) })).resolves.toMatchObject({
      data: { contact: null, found: false, mode: 'edit' },
      init: { status: 404 },
    });
    await expect(load(`/brands/${brand.id}`, { id: String(brand.id), contactId: String(contact.id) })).resolves.toMatchObject({
      contact: { id: contact.id },
      found: true,
    });
  });
});

/** The contact, payment and file actions, called directly with the server's context as the static handler does. */
describe('contact and payment route actions on the server', () => {
  let t: TestApp;
  let user: PublicUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.ctx, { email: 'attach@example.org', password: TEST_PASSWORD, firstName: 'Cy', lastName: 'Card' });
  });
  afterAll(async () => t.close());

  const context = (): ServerLoaderContext => ({
    dataSource: serverDataSource({ ctx: t.ctx, user } as unknown as ExpressRequest),
    signedIn: true,
  });
  const post = (url: string, fields: Record<string, string>) => new Request(url, { method: 'POST', body: new URLSearchParams(fields) });
  const run = (
    action: (args: ActionFunctionArgs) => Promise<unknown>,
    url: string,
    fields: Record<string, string>,
    params: Record<string, string> = {},
  ) => action({ request: post(url, fields), params, context: context() } as unknown as ActionFunctionArgs);
  const actor = () => ({ userId: user.id, source: 'web' as const, role: 'staff' as const });
  const locationOf = (result: unknown) => (result instanceof Response ? result.headers.get('Location') : null);

  it('creates a contact on its owner page from form fields and goes back to the owner', async () => {
    const brand = await createRecord(t.ctx, actor(), 'brand', { brandName: 'Form Owner' });
    const result = await run(
      ownerContactAction,
      `http://x/brands/${brand.id}/contacts/add`,
      {
        firstName: 'Kim',
        lastName: 'Lee',
        email: 'kim@example.org',
        mailchimpTags: 'a, b,,a',
        isPrimary: 'on',
        entityType: 'brand',
        entityId: String(brand.id),
      },
      { id: String(brand.id) },
    );
    expect(locationOf(result)).toBe(`/brands/${brand.id}`);
    const [saved] = await listContacts(t.ctx, 'brand', brand.id);
    expect(saved).toMatchObject({
      firstName: 'Kim',
      lastName: 'Lee',
      email: 'kim@example.org',
      mailchimpTags: ['a', 'b'],
      isPrimary: true,
      createdBy: user.id,
    });
  });

  it("answers an invalid contact with each field's message and status 400, and writes nothing", async () => {
    const event = await createRecord(t.ctx, actor(), 'event', { eventName: 'Invalid Contact Run' });
    const result = await run(
      ownerContactAction,
      `http://x/events/${event.id}/contacts/add`,
      { firstName: ' ', lastName: '', email: 'bad', entityType: 'event', entityId: String(event.id) },
      { id: String(event.id) },
    );
    expect(result).toMatchObject({
      data: {
        title: 'Failed to create contact',
        errors: { firstName: 'First name is required', lastName: 'Last name is required', email: 'Invalid email address' },
        toasted: false,
      },
      init: { status: 400 },
    });
    await expect(listContacts(t.ctx, 'event', event.id)).resolves.toEqual([]);
  });

  it('updates a contact on /contacts/:id/edit and goes to the return path, never off-site', async () => {
    const event = await createRecord(t.ctx, actor(), 'event', { eventName: 'Edit Contact Run' });
    const contact = await createContact(t.ctx, actor(), {
      firstName: 'Al',
      lastName: 'Bo',
      jobTitle: 'Coach',
      entityType: 'event',
      entityId: event.id,
    });
    const fields = { firstName: 'Al', lastName: 'Smith', entityType: 'event', entityId: String(event.id) };
    const result = await run(
      contactEditAction,
      `http://x/contacts/${contact.id}/edit?return=${encodeURIComponent(`/events/${event.id}?tab=contacts`)}`,
      fields,
      { id: String(contact.id) },
    );
    expect(locationOf(result)).toBe(`/events/${event.id}?tab=contacts`);
    // PUT semantics, as the form always sent every field: a field left out is stored empty.
    await expect(getContact(t.ctx, contact.id)).resolves.toMatchObject({ lastName: 'Smith', jobTitle: null });
    const offSite = await run(
      contactEditAction,
      `http://x/contacts/${contact.id}/edit?return=${encodeURIComponent('//evil.example')}`,
      fields,
      { id: String(contact.id) },
    );
    expect(locationOf(offSite)).toBe('/');
  });

  it('deletes a contact from its detail page only once confirmed, then goes to the return path', async () => {
    const event = await createRecord(t.ctx, actor(), 'event', { eventName: 'Delete Contact Run' });
    const contact = await createContact(t.ctx, actor(), { firstName: 'Del', lastName: 'Me', entityType: 'event', entityId: event.id });
    const url = `http://x/contacts/${contact.id}?return=${encodeURIComponent(`/events/${event.id}`)}`;
    const asked = await run(contactDetailAction, url, { intent: 'delete', id: String(contact.id) }, { id: String(contact.id) });
    expect(asked).toEqual({ confirmDelete: contact.id, intent: 'delete' });
    await expect(getContact(t.ctx, contact.id)).resolves.toMatchObject({ id: contact.id });
    const deleted = await run(
      contactDetailAction,
      url,
      { intent: 'delete', id: String(contact.id), confirmed: 'yes' },
      { id: String(contact.id) },
    );
    expect(locationOf(deleted)).toBe(`/events/${event.id}`);
    await expect(getContact(t.ctx, contact.id)).rejects.toMatchObject({ status: 404 });
  });

  it("writes a detail page's payments and contacts by intent, and comes back to the same page", async () => {
    const brand = await createRecord(t.ctx, actor(), 'brand', { brandName: 'Intent Brand' });
    const page = `http://x/brands/${brand.id}?from=test`;
    const params = { id: String(brand.id) };
    const owner = { entityType: 'brand', entityId: String(brand.id) };

    const created = await run(
      brandDetailAction,
      page,
      { intent: 'save-payment', description: 'Banner', amount: '10.50', invoiceStatus: 'paid', ...owner },
      params,
    );
    expect(locationOf(created)).toBe(`/brands/${brand.id}?from=test`);
    const [payment] = (await listPayments(t.ctx, { entityType: 'brand', entityId: brand.id })).items;
    expect(payment).toMatchObject({ description: 'Banner', amount: '10.50', invoiceStatus: 'paid' });

    await run(
      brandDetailAction,
      page,
      { intent: 'save-payment', id: String(payment!.id), description: 'Banner', amount: '12.00', invoiceStatus: 'overdue', ...owner },
      params,
    );
    await expect(getPayment(t.ctx, payment!.id)).resolves.toMatchObject({ amount: '12.00', invoiceStatus: 'overdue' });

    const refused = await run(brandDetailAction, page, { intent: 'save-payment', description: '', amount: 'x', ...owner }, params);
    expect(refused).toMatchObject({
      data: { title: 'Failed to add payment', errors: { description: 'Description is required' } },
      init: { status: 400 },
    });

    // The card's delete asks first (naming its own intent, so the brand's Delete does not ask too), then deletes.
    const asked = await run(brandDetailAction, page, { intent: 'delete-payment', id: String(payment!.id) }, params);
    expect(asked).toEqual({ confirmDelete: payment!.id, intent: 'delete-payment' });
    await expect(getPayment(t.ctx, payment!.id)).resolves.toMatchObject({ id: payment!.id });
    await run(brandDetailAction, page, { intent: 'delete-payment', id: String(payment!.id), confirmed: 'yes' }, params);
    await expect(getPayment(t.ctx, payment!.id)).rejects.toMatchObject({ status: 404 });

    await run(brandDetailAction, page, { intent: 'save-contact', firstName: 'Card', lastName: 'Contact', ...owner }, params);
    const [contact] = await listContacts(t.ctx, 'brand', brand.id);
    expect(contact).toMatchObject({ firstName: 'Card', lastName: 'Contact' });
    await run(brandDetailAction, page, { intent: 'delete-contact', id: String(contact!.id), confirmed: 'yes' }, params);
    await expect(listContacts(t.ctx, 'brand', brand.id)).resolves.toEqual([]);
    // The brand itself is untouched by its cards' writes.
    await expect(getRecord(t.ctx, 'brand', String(brand.id))).resolves.toMatchObject({ brandName: 'Intent Brand' });

    const unknown = await run(brandDetailAction, page, { intent: 'drop-table' }, params).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ init: { status: 400 } });
  });
});

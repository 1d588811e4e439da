import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '@shared/schemas/preferences.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { statementsSentBy } from '../helpers/db.js';

describe('user preferences', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers the defaults, remembers each user own choices, and refuses unknown names and bad values', async () => {
    const { agent } = await t.signedInAgent('one@example.org');
    const other = (await t.signedInAgent('two@example.org')).agent;
    expect((await agent.get('/api/preferences')).body).toEqual(DEFAULT_PREFERENCES);
    expect(DEFAULT_PREFERENCES['events.view']).toBe('cards');

    expect((await agent.put('/api/preferences/events.view').send({ value: 'table' })).body).toEqual({
      name: 'events.view',
      value: 'table',
    });
    expect((await agent.put('/api/preferences/brands.columns').send({ value: ['brandName', 'paymentStatus'] })).status).toBe(200);
    expect((await agent.put('/api/preferences/theme').send({ value: 'dark' })).status).toBe(200);
    // Storing again replaces.
    expect((await agent.put('/api/preferences/theme').send({ value: 'light' })).status).toBe(200);
    const mine = (await agent.get('/api/preferences')).body;
    expect(mine).toMatchObject({ 'events.view': 'table', 'brands.columns': ['brandName', 'paymentStatus'], theme: 'light' });
    expect((await other.get('/api/preferences')).body).toEqual(DEFAULT_PREFERENCES);

    const unknown = await agent.put('/api/preferences/colour').send({ value: 'red' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No preference is named colour');
    // Only events have a calendar view.
    const badView = await agent.put('/api/preferences/brands.view').send({ value: 'calendar' });
    expect(badView.status).toBe(400);
    expect(badView.body.message).toBe('view must be one of: cards, table');
    expect((await agent.put('/api/preferences/events.view').send({ value: 'list' })).body.message).toBe(
      'view must be one of: cards, table, calendar',
    );
    const badColumn = await agent.put('/api/preferences/brands.columns').send({ value: ['notes'] });
    expect(badColumn.status).toBe(400);
    expect(badColumn.body.message).toContain('columns must be some of: brandName');
    expect((await agent.put('/api/preferences/brands.columns').send({ value: [] })).body.message).toBe('Choose at least one column');
    expect((await agent.put('/api/preferences/theme').send({ theme: 'dark' })).status).toBe(400);
    expect((await agent.get('/api/preferences')).body).toEqual(mine);
    expect((await t.agent().get('/api/preferences')).status).toBe(401);
  });

  it("shows a list page in the user's chosen view, read with the session and never stale", async () => {
    const { agent } = await t.signedInAgent('three@example.org');
    await agent.post('/api/brands').send({ brandName: 'Stride Shoes' });
    const isTable = (html: string) => /<table[^>]*>/.test(html);
    expect((await agent.put('/api/preferences/brands.view').send({ value: 'table' })).status).toBe(200);
    let page = '';
    const statements = await statementsSentBy(t.database.db, async () => {
      page = (await agent.get('/brands')).text;
    });
    expect(isTable(page)).toBe(true);
    const preferenceReads = statements.filter(({ sql }) => /user_preferences/.test(sql));
    expect(preferenceReads).toHaveLength(1);
    expect(preferenceReads[0]!.sql).toMatch(/from [`"]?sessions/i);

    expect((await agent.put('/api/preferences/brands.view').send({ value: 'cards' })).status).toBe(200);
    expect(isTable((await agent.get('/brands')).text)).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** The <html> tag a page opens with: data-theme is the theme the server painted ('system' leaves it out). */
const htmlTag = (text: string) => /^<!DOCTYPE html>(<html[^>]*>)/.exec(text)?.[1];
const painted = (text: string) => /data-theme="(\w+)"/.exec(htmlTag(text) ?? '')?.[1] ?? 'system';

/** The SQL a request runs. */
function recordQueries(t: TestApp): { sql: string[]; stop: () => void } {
  const sql: string[] = [];
  const listener = (query: { sql: string }) => sql.push(query.sql);
  t.database.db.on('query', listener);
  return { sql, stop: () => t.database.db.off('query', listener) };
}

describe("the server paints the signed-in user's saved theme first", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it("paints a user's saved theme on every browser they sign in to, and leaves another user's alone", async () => {
    const ann = (await t.signedInAgent('ann@example.org')).agent;
    const ben = (await t.signedInAgent('ben@example.org')).agent;
    expect(painted((await ann.get('/brands')).text)).toBe('system');

    expect((await ann.put('/api/preferences/theme').send({ value: 'dark' })).status).toBe(200);
    const page = await ann.get('/brands');
    expect(page.status).toBe(200);
    expect(htmlTag(page.text)).toMatch(/^<html lang="[^"]+" data-theme="dark">$/);
    // The toggle starts from the same choice, so hydration matches the paint.
    expect(page.text).toContain('data-theme-choice="dark"');
    expect((await ann.get('/api/session')).body.theme).toBe('dark');

    // Another browser of Ann's (a new sign-in, no cookie) gets it too; Ben, who never chose, does not.
    const annElsewhere = (await t.signedInAgent('ann@example.org')).agent;
    expect(painted((await annElsewhere.get('/')).text)).toBe('dark');
    expect(painted((await ben.get('/brands')).text)).toBe('system');
    expect((await ben.get('/api/session')).body.theme).toBe('system');

    expect((await ben.put('/api/preferences/theme').send({ value: 'light' })).status).toBe(200);
    expect(painted((await ben.get('/brands')).text)).toBe('light');
    expect(painted((await ann.get('/brands')).text)).toBe('dark');
  });

  it("the saved choice wins over this browser's cookie; without one (or signed out) the cookie paints", async () => {
    const { agent: cy } = await t.signedInAgent('cy@example.org');
    expect(painted((await cy.get('/brands').set('Cookie', 'theme=light')).text)).toBe('light');
    expect((await cy.put('/api/preferences/theme').send({ value: 'system' })).status).toBe(200);
    expect(painted((await cy.get('/brands').set('Cookie', 'theme=light')).text)).toBe('system');
    expect(painted((await t.agent().get('/login').set('Cookie', 'theme=dark')).text)).toBe('dark');
  });

  it('reads the theme with the session, adding no query of its own', async () => {
    const { agent } = await t.signedInAgent('dee@example.org');
    expect((await agent.put('/api/preferences/theme').send({ value: 'dark' })).status).toBe(200);
    const queries = recordQueries(t);
    const page = await agent.get('/integrations');
    queries.stop();
    expect(painted(page.text)).toBe('dark');
    const preferenceReads = queries.sql.filter((sql) => /user_preferences/.test(sql));
    expect(preferenceReads).toHaveLength(1);
    expect(preferenceReads[0]).toMatch(/from [`"]?sessions/i);
  });

  it('paints the cookie (or the system) when the stored theme no longer fits, rather than failing', async () => {
    const { agent, user } = await t.signedInAgent('eve@example.org');
    await t.database
      .db('user_preferences')
      .insert({ userId: user.id, name: 'theme', value: '"purple"', updatedAt: encodeTimestamp(new Date()) });
    const page = await agent.get('/brands').set('Cookie', 'theme=dark');
    expect(page.status).toBe(200);
    expect(painted(page.text)).toBe('dark');
    expect(painted((await agent.get('/brands')).text)).toBe('system');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { declaredApiRoutes, routeKey, type DeclaredRoute } from '../fuzz/routes.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/**
 * Write routes anyone signed in may use, each with why: they act on the caller's own sign-in or account. Every
 * other write route must refuse a viewer with 403; a new route that forgets the role check fails this test.
 */
const SELF_SERVICE: Record<string, string> = {
  'POST /api/login': 'signing in',
  'POST /api/logout': 'signing out',
  'POST /api/setup': 'first-run set-up (refused once a user exists)',
  'DELETE /api/sessions/:id': 'signing out one of my own sessions',
  'POST /api/sessions/sign-out-others': 'signing out my other sessions',
  'PUT /api/account': 'changing my own name',
  'POST /api/account/password': 'changing my own password',
  'POST /api/set-password/:token': 'setting my password through a one-time link (the token is the proof)',
  'PUT /api/preferences/:name': 'choosing my own list views, columns and theme',
  'POST /api/password-reset': '"Forgot password?" (signed out; the emailed link is the proof)',
  'POST /api/me/totp': 'setting up two-factor sign-in for my own account',
  'POST /api/me/totp/confirm': 'confirming my own two-factor sign-in',
  'DELETE /api/me/totp': 'turning off my own two-factor sign-in (with my password and a code)',
  'POST /api/notifications/read': 'marking my own notifications read',
  'POST /api/login/passkey/options': 'a challenge for signing in with a passkey (signed out)',
  'POST /api/login/passkey': 'signing in with a passkey',
  'POST /api/me/passkeys/options': 'a challenge for adding a passkey to my own account',
  'POST /api/me/passkeys': 'adding a passkey to my own account',
  'PATCH /api/me/passkeys/:id': 'renaming one of my own passkeys',
  'DELETE /api/me/passkeys/:id': 'removing one of my own passkeys',
};

/** Routes only an admin may use (reads included): staff get 403 too. */
const ADMIN_ONLY = new Set<string>([
  'GET /api/users',
  'POST /api/users',
  'PUT /api/users/:id',
  'POST /api/users/:id/reset-link',
  'POST /api/users/:id/reset-2fa',
  'GET /api/users/:id/sign-ins',
  'GET /api/security',
  'PUT /api/security',
  'GET /api/deleted',
  'POST /api/deleted/:id/restore',
  'GET /api/api-tokens',
  'POST /api/api-tokens',
  'DELETE /api/api-tokens/:id',
  'GET /api/backups',
  'POST /api/backups',
  'GET /api/backups/:name/download',
  'GET /api/webhooks',
  'GET /api/webhooks/:id',
  'POST /api/webhooks',
  'DELETE /api/webhooks/:id',
  'POST /api/webhooks/:id/enable',
  'POST /api/webhooks/:id/test',
  'POST /api/webhooks/:id/deliveries/:deliveryId/replay',
  'GET /api/activity',
  'GET /api/activity.csv',
]);

/** A concrete URL for a route pattern: ids that may or may not exist, since the role is checked before anything is read. */
const urlOf = (path: string) =>
  path
    .replace(':kind', 'events')
    .replace(':entityType', 'brand')
    .replace(':audienceId', 'abc123')
    .replace(/:[A-Za-z]+/g, '1');

const send = (agent: Agent, route: DeclaredRoute) =>
  (agent as unknown as Record<string, (url: string) => ReturnType<Agent['post']>>)[route.method.toLowerCase()]!(urlOf(route.path)).send({});

describe('roles on every /api route', () => {
  let t: TestApp;
  let viewer: Agent;
  let staff: Agent;
  const routes = declaredApiRoutes();
  const writes = routes.filter((route) => route.method !== 'GET' && !(routeKey(route) in SELF_SERVICE));

  beforeAll(async () => {
    t = await createTestApp();
    viewer = (await t.signedInAgent('viewer@example.org', 'viewer')).agent;
    staff = (await t.signedInAgent('staff@example.org', 'staff')).agent;
  });
  afterAll(() => t.close());

  it('reads the route list from the router (writes of every area are in it)', () => {
    const keys = routes.map(routeKey);
    for (const expected of [
      'POST /api/events',
      'PUT /api/brands/:id',
      'DELETE /api/files/:id',
      'POST /api/upload',
      'POST /api/sync/:kind',
      'POST /api/contacts/bulk-tags',
      'POST /api/contacts/bulk-delete',
      'POST /api/contacts/bulk-mailchimp',
    ])
      expect(keys).toContain(expected);
    expect(writes.length).toBeGreaterThan(25);
  });

  it.each(routes.filter((route) => route.method !== 'GET').map((route) => [routeKey(route), route] as const))(
    '%s refuses a viewer with 403 and a readable message, unless it is self-service',
    async (key, route) => {
      if (key in SELF_SERVICE) return;
      const res = await send(viewer, route);
      expect(res.status, `${key} answered ${res.status} ${res.text}`).toBe(403);
      expect(res.body).toEqual({
        code: 'forbidden',
        message: ADMIN_ONLY.has(key)
          ? 'Your role (Viewer) does not allow you to do this (it needs an admin). Ask an admin if you need it.'
          : 'Your role (Viewer) does not allow you to make changes. Ask an admin if you need it.',
      });
    },
  );

  it('lets staff through the role check of every write that is not admin-only', async () => {
    for (const route of writes.filter((r) => !ADMIN_ONLY.has(routeKey(r)))) {
      const res = await send(staff, route);
      expect(res.status, `${routeKey(route)} answered ${res.status} ${res.text}`).not.toBe(403);
    }
  });

  it('refuses staff on admin-only routes', async () => {
    for (const route of routes.filter((r) => ADMIN_ONLY.has(routeKey(r)))) {
      const res = await send(staff, route);
      expect(res.status, routeKey(route)).toBe(403);
      expect(res.body.message).toBe('Your role (Staff) does not allow you to do this (it needs an admin). Ask an admin if you need it.');
    }
  });

  it('refuses a viewer on the page forms too, and nothing is written', async () => {
    const res = await viewer.post('/brands/add').type('form').send({ brandName: 'Not by a viewer' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Your role (Viewer) does not allow you to make changes.');
    expect(await t.database.db('brands').where({ brandName: 'Not by a viewer' }).first()).toBeUndefined();
  });
});

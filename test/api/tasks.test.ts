import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

// The fake clock starts at 2026-11-21T09:00Z; the organisation is in Sydney (UTC+11 in November): 20:00 there.
const TODAY = '2026-11-21';

describe('tasks (issue 33)', () => {
  let t: TestApp;
  let staff: Agent;
  let other: Agent;
  let viewer: Agent;
  let admin: Agent;
  let staffId: number;
  let otherId: number;
  let eventId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { ORG_TIME_ZONE: 'Australia/Sydney' } });
    const s = await t.signedInAgent('sam.staff@example.org', 'staff');
    staff = s.agent;
    staffId = s.user.id;
    const o = await t.signedInAgent('olga.other@example.org', 'staff');
    other = o.agent;
    otherId = o.user.id;
    await t.database.db('users').where({ id: otherId }).update({ firstName: 'Olga', lastName: 'Other' });
    viewer = (await t.signedInAgent('vic.viewer@example.org', 'viewer')).agent;
    admin = (await t.signedInAgent('ada.admin@example.org', 'admin')).agent;
    eventId = (await staff.post('/api/events').send({ eventName: 'Harbour Run', eventStartDate: '2027-03-01' })).body.id as number;
  });
  afterAll(() => t.close());

  const create = (agent: Agent, body: Record<string, unknown>) => agent.post('/api/tasks').send({ assigneeId: staffId, ...body });
  const titles = (res: { body: { items: Array<{ title: string }> } }) => res.body.items.map((task) => task.title);

  it('creates tasks with a due day and optional time, an assignee and an optional link', async () => {
    const res = await create(staff, {
      title: 'Call the race director',
      dueDate: TODAY,
      dueTime: '21:30',
      entityType: 'event',
      entityId: eventId,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Call the race director',
      dueDate: TODAY,
      dueTime: '21:30',
      assigneeId: staffId,
      assigneeName: 'Sam Staff',
      entityType: 'event',
      entityId: eventId,
      entityName: 'Harbour Run',
      done: false,
      doneAt: null,
      doneBy: null,
      overdue: false,
      notes: null,
    });
    const later = await create(staff, { title: 'Earlier today', dueDate: TODAY, dueTime: '08:00' });
    expect(later.body.overdue).toBe(true);
  });

  it('names the record or contact of each task in one list, whatever their types', async () => {
    const influencer = (await staff.post('/api/influencers').send({ firstName: 'Mia', lastName: 'Stride' })).body.id as number;
    const contact = (await staff.post('/api/contacts').send({ entityType: 'event', entityId: eventId, firstName: 'Cy', lastName: 'Cole' }))
      .body.id as number;
    const linked = [
      { title: 'Linked to an influencer', entityType: 'influencer', entityId: influencer },
      { title: 'Linked to a contact', entityType: 'contact', entityId: contact },
      { title: 'Linked to an event', entityType: 'event', entityId: eventId },
    ];
    for (const task of linked) expect((await create(other, { ...task, dueDate: '2027-01-05', assigneeId: otherId })).status).toBe(201);
    const listed = await other.get(`/api/tasks?assignee=me`);
    const names = Object.fromEntries(
      (listed.body.items as Array<{ title: string; entityName: string | null }>).map((task) => [task.title, task.entityName]),
    );
    expect(names).toMatchObject({
      'Linked to an influencer': 'Mia Stride',
      'Linked to a contact': 'Cy Cole',
      'Linked to an event': 'Harbour Run',
    });
    for (const task of linked) await t.database.db('tasks').where({ title: task.title }).delete();
  });

  it('answers pages as long as the other lists (24) unless a limit is given', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({
      title: `Batch ${i}`,
      dueDate: '2027-02-01',
      dueTime: '',
      assigneeId: otherId,
      done: false,
      createdAt: encodeTimestamp(new Date()),
      updatedAt: encodeTimestamp(new Date()),
    }));
    await t.database.db('tasks').insert(rows);
    const first = await other.get('/api/tasks?assignee=me');
    expect(first.body.items).toHaveLength(24);
    expect(first.body.next).not.toBeNull();
    expect((await other.get('/api/tasks?assignee=me&limit=30')).body.items).toHaveLength(25);
    await t.database.db('tasks').where('title', 'like', 'Batch %').delete();
  });

  it('refuses bad input with 4xx', async () => {
    expect((await create(staff, { title: '', dueDate: TODAY })).status).toBe(400);
    expect((await create(staff, { title: 'x', dueDate: '2026-02-30' })).status).toBe(400);
    expect((await create(staff, { title: 'x' })).status).toBe(400);
    expect((await create(staff, { title: 'x', dueDate: TODAY, dueTime: '25:00' })).status).toBe(400);
    expect((await create(staff, { title: 'x', dueDate: TODAY, assigneeId: 999999 })).status).toBe(400);
    expect((await create(staff, { title: 'x', dueDate: TODAY, entityType: 'event' })).status).toBe(400);
    expect((await create(staff, { title: 'x', dueDate: TODAY, entityType: 'event', entityId: 999999 })).status).toBe(404);
    expect((await staff.get('/api/tasks?status=maybe')).status).toBe(400);
    expect((await staff.get('/api/tasks?due=month')).status).toBe(400);
    expect((await staff.get('/api/tasks?after=garbage')).status).toBe(400);
    expect((await staff.get('/api/tasks?entityType=event')).status).toBe(400);
    expect((await staff.put('/api/tasks/999999').send({ done: true })).status).toBe(404);
    expect((await staff.put('/api/tasks/1').send({ done: 'perhaps' })).status).toBe(400);
  });

  it('filters by assignee, status, due and record, and pages with the cursor', async () => {
    await create(staff, { title: 'Overdue one', dueDate: '2026-11-19' });
    await create(staff, { title: 'Tomorrow', dueDate: '2026-11-22' });
    await create(staff, { title: 'In six days', dueDate: '2026-11-27' });
    await create(staff, { title: 'Next month', dueDate: '2026-12-21' });
    await create(staff, { title: 'For Olga', dueDate: TODAY, assigneeId: otherId });

    const overdue = await staff.get('/api/tasks?assignee=me&due=overdue');
    expect(titles(overdue)).toEqual(['Overdue one', 'Earlier today']);
    const today = await staff.get('/api/tasks?assignee=me&due=today');
    expect(titles(today)).toEqual(['Earlier today', 'Call the race director']);
    expect(today.body.today).toBe(TODAY);
    const week = await staff.get('/api/tasks?assignee=me&due=week');
    expect(titles(week)).toEqual(['Earlier today', 'Call the race director', 'Tomorrow', 'In six days']);
    expect(titles(await staff.get(`/api/tasks?assignee=${otherId}`))).toEqual(['For Olga']);
    expect(titles(await staff.get(`/api/tasks?entityType=event&entityId=${eventId}`))).toEqual(['Call the race director']);

    const seen: string[] = [];
    let next: string | null = null;
    do {
      const page: { body: { items: Array<{ title: string }>; next: string | null } } = await staff.get(
        `/api/tasks?assignee=me&limit=2${next ? `&after=${next}` : ''}`,
      );
      seen.push(...page.body.items.map((task) => task.title));
      next = page.body.next;
    } while (next);
    expect(seen).toEqual(['Overdue one', 'Earlier today', 'Call the race director', 'Tomorrow', 'In six days', 'Next month']);
  });

  it('completes and reopens a task with who and when; done tasks list newest first', async () => {
    const task = await create(staff, { title: 'Send the contract', dueDate: TODAY });
    t.clock.advance(5000);
    const done = await other.put(`/api/tasks/${task.body.id}`).send({ done: true });
    expect(done.body).toMatchObject({ done: true, doneBy: otherId, doneByName: 'Olga Other', doneAt: t.clock.now().toISOString() });
    expect(titles(await staff.get('/api/tasks?assignee=me&status=done'))).toEqual(['Send the contract']);
    expect(titles(await staff.get('/api/tasks?assignee=me&due=today'))).not.toContain('Send the contract');
    const reopened = await staff.put(`/api/tasks/${task.body.id}`).send({ done: false, title: 'Send the signed contract' });
    expect(reopened.body).toMatchObject({ done: false, doneBy: null, doneAt: null, title: 'Send the signed contract' });
  });

  it('notifies an assignee of a task assigned by someone else, not of their own', async () => {
    const before = (await other.get('/api/notifications')).body.items.length as number;
    const task = await create(other, { title: 'Self task', dueDate: TODAY, assigneeId: otherId });
    expect((await other.get('/api/notifications')).body.items).toHaveLength(before);
    await other.put(`/api/tasks/${task.body.id}`).send({ assigneeId: staffId });
    const mine = (await staff.get('/api/notifications')).body.items;
    expect(mine[0]).toMatchObject({ kind: 'assignment', text: 'Olga Other assigned you a task: Self task', url: '/tasks' });
    // The session carries my open tasks due by today.
    expect((await staff.get('/api/session')).body.attention.tasksDue).toBeGreaterThan(0);
  });

  it('lets viewers read but not change tasks', async () => {
    const task = await create(staff, { title: 'Viewer check', dueDate: TODAY });
    expect((await viewer.get('/api/tasks')).status).toBe(200);
    expect((await viewer.get(`/api/tasks/${task.body.id}`)).status).toBe(200);
    expect((await create(viewer, { title: 'No', dueDate: TODAY })).status).toBe(403);
    expect((await viewer.put(`/api/tasks/${task.body.id}`).send({ done: true })).status).toBe(403);
    expect((await viewer.delete(`/api/tasks/${task.body.id}`)).status).toBe(403);
  });

  it('deletes to Recently deleted; undo and an admin restore bring the task back', async () => {
    const task = await create(staff, { title: 'Deleted and back', dueDate: TODAY, entityType: 'event', entityId: eventId });
    expect((await staff.delete(`/api/tasks/${task.body.id}`)).status).toBe(204);
    expect((await staff.get(`/api/tasks/${task.body.id}`)).status).toBe(404);
    expect((await staff.post('/api/deleted/undo').send({ type: 'task', ids: [task.body.id] })).body).toEqual({ restored: 1 });
    expect((await staff.get(`/api/tasks/${task.body.id}`)).body).toMatchObject({ title: 'Deleted and back', entityName: 'Harbour Run' });

    await staff.delete(`/api/tasks/${task.body.id}`);
    const entry = (await admin.get('/api/deleted')).body.find(
      (item: { type: string; entityId: number }) => item.type === 'task' && item.entityId === task.body.id,
    );
    expect(entry).toMatchObject({ name: 'Deleted and back' });
    expect((await admin.post(`/api/deleted/${entry.id}/restore`)).status).toBe(200);
    expect((await staff.get(`/api/tasks/${task.body.id}`)).status).toBe(200);
  });
});

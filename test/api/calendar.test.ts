import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventCalendar } from '@shared/schemas/calendar.js';
import { monthWeeks } from '@shared/calendar.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('season calendar (GET /api/calendar/events and /events?view=calendar)', () => {
  let t: TestApp;
  let agent: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
    const events = [
      { eventName: 'March Opener', eventStartDate: '2027-03-14' },
      { eventName: 'Three Day Stage Race', eventStartDate: '2027-02-27', eventEndDate: '2027-03-02' },
      { eventName: 'Long Ago Ultra', eventStartDate: '2027-01-01', eventEndDate: '2027-03-20' },
      { eventName: 'April Trail', eventStartDate: '2027-04-10' },
      { eventName: 'Undated Fun Run' },
    ];
    for (const event of events) expect((await agent.post('/api/events').send(event)).status).toBe(201);
  });
  afterAll(async () => t.close());

  const read = async (query: string) => {
    const res = await agent.get(`/api/calendar/events${query}`);
    expect(res.status).toBe(200);
    return res.body as EventCalendar;
  };

  it('lays out Monday-first weeks that cover the month and the days around it', () => {
    const weeks = monthWeeks('2027-03');
    expect(weeks[0]![0]).toBe('2027-03-01');
    expect(weeks.at(-1)![6]).toBe('2027-04-04');
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(monthWeeks('2027-02')[0]![0]).toBe('2027-02-01');
    expect(monthWeeks('2026-11')[0]![0]).toBe('2026-10-26');
  });

  it("gives the month's events by start date, with multi-day events that are still running", async () => {
    const calendar = await read('?month=2027-03');
    expect(calendar.month).toBe('2027-03');
    expect(calendar.today).toBe('2026-11-21');
    expect(calendar.truncated).toBe(false);
    // The stage race started in February and runs into March; the April event shows on the grid's last days only
    // if it starts by 4 April; the ultra started too long before the grid to be drawn on it.
    expect(calendar.events.map((event) => event.eventName)).toEqual(['Three Day Stage Race', 'March Opener']);
    expect(calendar.events[0]).toMatchObject({ eventStartDate: '2027-02-27', eventEndDate: '2027-03-02' });
  });

  it("defaults to the visitor's current month and refuses a malformed month with a 400", async () => {
    expect((await read('')).month).toBe('2026-11');
    for (const month of ['2027-13', 'march', '2027-3', '3000-01']) {
      const res = await agent.get(`/api/calendar/events?month=${month}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('month must be a month written YYYY-MM, e.g. 2027-03');
    }
  });

  it('renders the month on the server with today marked and previous/next months in the URL', async () => {
    const res = await agent.get('/events?view=calendar&month=2027-03');
    expect(res.status).toBe(200);
    expect(res.text).toContain('March 2027');
    expect(res.text).toContain('href="/events?view=calendar&amp;month=2027-02"');
    expect(res.text).toContain('href="/events?view=calendar&amp;month=2027-04"');
    // The stage race is on each of its March days (1 and 2 March) in the grid and in the phone's agenda: a
    // continuing day, then the last day that closes the span.
    expect(res.text.match(/calendar-event-middle[^"]*"[^>]*><span[^>]*>continues: <\/span>Three Day Stage Race/g)).toHaveLength(2);
    expect(res.text.match(/calendar-event-end[^"]*"[^>]*><span[^>]*>continues: <\/span>Three Day Stage Race/g)).toHaveLength(2);
    const thisMonth = await agent.get('/events?view=calendar');
    expect(thisMonth.text).toMatch(/<td class="calendar-day calendar-today" aria-current="date" data-day="2026-11-21">/);
    // A malformed month on the page shows this month rather than an error.
    expect((await agent.get('/events?view=calendar&month=nope')).text).toContain('November 2026');
  });

  /** The view switch's button for a view, pressed or not, as the server paints it. */
  const pressed = (html: string, label: string) => new RegExp(`<button[^>]*aria-pressed="true"[^>]*>${label}</button>`).test(html);
  const choose = (from: string, view: string) => agent.post(from).type('form').send({ intent: 'view', view });

  it('is the third entry of the events view switch, remembered per user, and works without JavaScript', async () => {
    const { agent: newcomer } = await t.signedInAgent();
    // New users get the cards; the switch offers Cards | Table | Calendar, only on events.
    const list = await newcomer.get('/events');
    expect(list.text).toContain('data-testid="event-card"');
    expect(pressed(list.text, 'Cards')).toBe(true);
    expect(list.text).toMatch(/>Cards<\/button>.*>Table<\/button>.*>Calendar<\/button>/s);
    expect((await newcomer.get('/brands')).text).not.toContain('>Calendar</button>');

    // Choosing Calendar (a plain form post) remembers it and goes to the calendar, which shows Calendar as current.
    const chosen = await choose('/events', 'calendar');
    expect([chosen.status, chosen.headers.location]).toEqual([302, '/events?view=calendar']);
    const calendar = await agent.get('/events?view=calendar&month=2027-03');
    expect(pressed(calendar.text, 'Calendar')).toBe(true);
    expect(calendar.text).toContain('March 2027');
    // Remembered on the server: plain /events paints the calendar at once; a search or a filter still shows the list,
    // in cards.
    expect((await agent.get('/events')).text).toContain('calendar-day calendar-today');
    const searched = await agent.get('/events?q=march');
    expect(searched.text).toContain('data-testid="event-card"');
    expect(pressed(searched.text, 'Cards')).toBe(true);
    // Switching month keeps the view; Table from the calendar goes back to the list, in a table.
    const monthKept = await choose('/events?view=calendar&month=2027-03', 'calendar');
    expect(monthKept.headers.location).toBe('/events?view=calendar&month=2027-03');
    const table = await choose('/events?view=calendar&month=2027-03', 'table');
    expect([table.status, table.headers.location]).toEqual([302, '/events']);
    const back = await agent.get('/events');
    expect(back.text).toContain('records-table');
    expect(pressed(back.text, 'Table')).toBe(true);
    // Other lists have no calendar to choose.
    expect((await agent.put('/api/preferences/brands.view').send({ value: 'calendar' })).status).toBe(400);
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SeasonCalendar } from '@views/components/records/season-calendar.js';
import { renderPage } from './records-render.js';

const calendarOf = (month: string, events: Array<{ id: number; eventName: string; eventStartDate: string }> = []) => ({
  month,
  today: '2027-03-10',
  truncated: false,
  events: events.map((event) => ({ ...event, eventEndDate: null, featuredRace: false, locationState: null })),
});

describe('season calendar: an empty month', () => {
  it("says 'No events in <Month>' and offers Today back to the current month", async () => {
    const calendar = calendarOf('2027-05');
    renderPage({ path: '/events', url: '/events?view=calendar&month=2027-05', Component: () => <SeasonCalendar calendar={calendar} /> });
    const empty = await screen.findByTestId('calendar-empty');
    expect(empty.textContent).toContain('No events in May 2027');
    expect(within(empty).getByRole('link', { name: 'Today' }).getAttribute('href')).toBe('/events?view=calendar&month=2027-03');
  });

  it('says nothing of the kind for a month with events, nor offers Today in the current month', async () => {
    const calendar = calendarOf('2027-03', [{ id: 3, eventName: 'March Opener', eventStartDate: '2027-03-14' }]);
    renderPage({ path: '/events', url: '/events?view=calendar&month=2027-03', Component: () => <SeasonCalendar calendar={calendar} /> });
    await screen.findByRole('heading', { name: 'March 2027' });
    expect(screen.queryByTestId('calendar-empty')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Today' })).toBeNull();
  });
});

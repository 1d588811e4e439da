import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SORTS } from '@shared/records/sorts.js';
import { readListQuery } from '@shared/list-query.js';
import { SortMenu, sortingOf } from '@views/components/records/list-views.js';
import { listPageHref } from '@views/components/records/list-query.js';

const sorting = sortingOf(SORTS.brand, [
  { key: 'brandName', label: 'Name', sort: 'brandName', render: () => null },
  { key: 'totalAdvertisingSpend', label: 'Advertising spend', sort: 'totalAdvertisingSpend', render: () => null },
]);

/** The brand list's sort menu at `url`, with the list's query read from it as the page loader reads it. */
function renderSortMenu(url: string) {
  function Page() {
    const location = useLocation();
    const read = readListQuery('brand', new URLSearchParams(location.search), 'page');
    return (
      <>
        <SortMenu
          listPath="/brands"
          current={read.view}
          sorting={sorting}
          sortHref={(sort, dir) => listPageHref('/brands', { ...read.view, sort, dir, page: 1 })}
          keep={{}}
        />
        <output data-testid="url">{location.search}</output>
      </>
    );
  }
  const router = createMemoryRouter([{ path: '/brands', Component: Page }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return screen.getByLabelText('Sort by') as HTMLSelectElement;
}

const shown = (select: HTMLSelectElement) => select.selectedOptions[0]?.textContent;

describe('the sort menu: one select of named orders', () => {
  it('names each order with its direction, so no pair of controls can disagree', () => {
    const select = renderSortMenu('/brands');
    const labels = [...select.options].map((option) => option.textContent);
    expect(labels.slice(0, 4)).toEqual(['Newest first', 'Oldest first', 'Name A–Z', 'Name Z–A']);
    expect(labels).toContain('Advertising spend: high to low');
    expect(labels).toContain('Advertising spend: low to high');
    expect(screen.queryByLabelText('Direction')).toBeNull();
    expect(shown(select)).toBe('Newest first');
  });

  it('shows what an old link with sort and dir applies: newest ascending is "Oldest first"', () => {
    expect(shown(renderSortMenu('/brands?dir=asc'))).toBe('Oldest first');
  });

  it('reads an old sort+dir link and the form’s sort=key:dir alike', () => {
    const old = readListQuery('brand', new URLSearchParams('sort=brandName&dir=desc'), 'page');
    const named = readListQuery('brand', new URLSearchParams('sort=brandName:desc'), 'page');
    expect(old.ok && named.ok).toBe(true);
    expect(named.view).toEqual(old.view);
    expect(named.view).toMatchObject({ sort: 'brandName', dir: 'desc' });
    expect(shown(renderSortMenu('/brands?sort=brandName&dir=desc'))).toBe('Name Z–A');
  });

  it('goes to the chosen order as sort and dir in the URL', async () => {
    const select = renderSortMenu('/brands');
    fireEvent.change(select, { target: { value: 'brandName:desc' } });
    await waitFor(() => expect(screen.getByTestId('url').textContent).toBe('?sort=brandName&dir=desc'));
    expect(shown(screen.getByLabelText('Sort by') as HTMLSelectElement)).toBe('Name Z–A');
  });
});

import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Role } from '@shared/roles.js';
import { MainLayout } from '@views/components/layout/main-layout.js';

function renderLayout(role: Role) {
  const user = {
    id: 1,
    email: 'jo.runner@example.org',
    firstName: 'Jo',
    lastName: 'Runner',
    role,
    isActive: true,
    createdAt: '',
    lastLogin: null,
  };
  const element = (
    <MainLayout user={user} theme="dark">
      <p>content</p>
    </MainLayout>
  );
  render(<RouterProvider router={createMemoryRouter([{ path: '*', element }], { initialEntries: ['/'] })} />);
}

const header = () => document.querySelector('header')!;
const menuTrigger = () => screen.getByLabelText('Account menu of jo.runner@example.org, JO');

describe('the header: an avatar menu and a labelled theme control', () => {
  it('keeps the settings links in the avatar’s menu, not as text links in the header', () => {
    renderLayout('admin');
    const trigger = menuTrigger();
    // A button with the initials that opens the menu (a native popover, shown by the browser).
    expect(trigger.tagName).toBe('BUTTON');
    expect(trigger.textContent).toBe('JO');
    const menu = document.getElementById(trigger.getAttribute('popovertarget')!)!;
    expect(menu.getAttribute('popover')).toBe('auto');
    const links = [...menu.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Account', '/settings/account'],
      ['Possible duplicates', '/duplicates?type=contacts'],
      ['Users', '/settings/users'],
      ['Recently deleted', '/settings/deleted'],
      ['Backups', '/settings/backups'],
      ['API tokens', '/settings/api-tokens'],
      ['Webhooks', '/settings/webhooks'],
      ['Activity log', '/settings/activity'],
    ]);
    // Outside the menu, the header has no settings links.
    const outside = [...header().querySelectorAll('a')].filter((link) => !menu.contains(link));
    expect(outside.map((link) => link.getAttribute('href'))).not.toContain('/settings/account');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('offers staff their account and the possible duplicates only', () => {
    renderLayout('staff');
    const menu = document.getElementById(menuTrigger().getAttribute('popovertarget')!)!;
    expect([...menu.querySelectorAll('a')].map((link) => link.textContent)).toEqual(['Account', 'Possible duplicates']);
  });

  it('names the theme in words, not only with a symbol', () => {
    renderLayout('staff');
    const toggle = screen.getByRole('button', { name: /^Theme: / });
    expect(toggle.getAttribute('aria-label')).toBe('Theme: Dark. Switch to System');
    expect(toggle.textContent).toContain('Theme: Dark');
  });
});

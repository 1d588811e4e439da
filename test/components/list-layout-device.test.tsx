import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { deviceClassOf } from '@shared/device.js';
import { DEFAULT_PREFERENCES, type Preferences } from '@shared/schemas/preferences.js';
import type { DeviceClass } from '@shared/device.js';
import { listLoader } from '@views/components/records/loaders.js';
import { preferenceIntent } from '@views/components/records/list-actions.js';
import { fakeDataSource } from '../helpers/fake-data-source.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

describe('the device class of a request', () => {
  it('is what the browser reported in its cookie, else a phone by its user agent', () => {
    expect(deviceClassOf('tz=UTC; device=phone', LAPTOP)).toBe('phone');
    expect(deviceClassOf('device=desktop', IPHONE)).toBe('desktop');
    expect(deviceClassOf(undefined, IPHONE)).toBe('phone');
    expect(deviceClassOf('device=tablet', LAPTOP)).toBe('desktop');
  });
});

describe('a list layout is remembered per device class', () => {
  const preferences: Preferences = { ...DEFAULT_PREFERENCES, 'brands.view': 'table' };
  const load = async (device: DeviceClass) => {
    const ds = fakeDataSource({
      preferences: () => Promise.resolve(preferences),
      deviceClass: () => device,
      listRecords: () => Promise.resolve({ items: [], total: 0, next: null, prev: null }),
    });
    const args = { request: new Request('http://x/brands'), params: {}, context: { dataSource: ds, signedIn: true } };
    return (await listLoader('brand')(args as unknown as LoaderFunctionArgs)) as { display: { layout: string } };
  };

  it('shows the table chosen on a desktop only on desktops: a phone shows cards until one is chosen there', async () => {
    expect((await load('desktop')).display.layout).toBe('table');
    expect((await load('phone')).display.layout).toBe('cards');
  });

  it('stores a layout chosen on a phone as the phone’s', async () => {
    for (const [device, name] of [
      ['phone', 'brands.phoneView'],
      ['desktop', 'brands.view'],
    ] as const) {
      const setPreference = vi.fn(() => Promise.resolve({}));
      const ds = fakeDataSource({ setPreference, deviceClass: () => device });
      const form = new FormData();
      form.set('view', 'table');
      const args = { request: new Request('http://x/brands', { method: 'POST' }), params: {}, context: { dataSource: ds, signedIn: true } };
      await preferenceIntent('brands', 'view')(args as unknown as ActionFunctionArgs, form);
      expect(setPreference).toHaveBeenCalledWith(name, 'table');
    }
  });
});

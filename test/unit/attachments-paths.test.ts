import { describe, expect, it } from 'vitest';
import { contactDetailPath, ownerTypeFromPath, safeReturnPath } from '@views/components/attachments/paths.js';

describe('safeReturnPath', () => {
  it('keeps same-site paths', () => {
    expect(safeReturnPath('/events/7')).toBe('/events/7');
    expect(safeReturnPath('/brands/3?tab=contacts#x')).toBe('/brands/3?tab=contacts#x');
  });

  it("falls back to '/' for anything that could leave the site or is missing", () => {
    for (const value of [
      null,
      undefined,
      '',
      'events/7',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      ' /events',
    ]) {
      expect(safeReturnPath(value), String(value)).toBe('/');
    }
  });

  it('is applied when building contact links', () => {
    expect(contactDetailPath(5, '//evil.example')).toBe('/contacts/5?return=%2F');
    expect(contactDetailPath(5, '/events/7')).toBe('/contacts/5?return=%2Fevents%2F7');
  });
});

describe('ownerTypeFromPath', () => {
  it('reads the owner type from the first path segment', () => {
    expect(ownerTypeFromPath('/events/7/contacts/add')).toBe('event');
    expect(ownerTypeFromPath('/runclubs/2/contacts/9/edit')).toBe('runclub');
    expect(ownerTypeFromPath('/media/1/contacts/add')).toBe('media');
    expect(ownerTypeFromPath('/influencers/1')).toBeNull();
  });
});

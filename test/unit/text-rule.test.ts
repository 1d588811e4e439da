import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PushOptionsSchema } from '@services/newsletter/service.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import { INVALID_CHARACTER, invalidCharacterIn, isStorableText, text } from '@shared/schemas/text.js';

const RUNNER = '\ud83c\udfc3'; // 🏃, one surrogate pair

describe('the text rule', () => {
  it('refuses lone surrogates (either half, anywhere) and NUL', () => {
    for (const bad of [
      '\ud800',
      '\udc00x',
      'a\u0000b',
      '\u0000',
      `x${RUNNER.charAt(0)}`,
      `${RUNNER.charAt(1)}x`,
      `${RUNNER.charAt(1)}${RUNNER.charAt(0)}`,
      `${RUNNER}\ud83c`,
    ]) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('accepts whole surrogate pairs and every other character, U+FFFD and control characters other than NUL included', () => {
    for (const fine of ['', 'plain', RUNNER, `${RUNNER}${RUNNER}`, '🏃‍♀️', 'Zoë', '\ufffd', 'tab\there', 'line\nbreak', '\u2028', '\u0001']) {
      expect(isStorableText(fine), JSON.stringify(fine)).toBe(true);
    }
  });

  it('text() reports only the rule when it fails (no length or format issue on top), with the readable message', () => {
    const name = text('Name is required').trim().min(5, 'Too short');
    expect(name.safeParse(' \ud800 ').error?.issues).toEqual([
      expect.objectContaining({ code: 'custom', message: INVALID_CHARACTER, path: [] }),
    ]);
    expect(name.safeParse(42).error?.issues[0]?.message).toBe('Name is required');
    expect(name.safeParse(`  ${RUNNER} runs  `).data).toBe(`${RUNNER} runs`);
    const email = text().pipe(z.email());
    expect(email.safeParse('jo\u0000@example.org').error?.issues.map((issue) => issue.message)).toEqual([INVALID_CHARACTER]);
    expect(email.safeParse('not an address').error?.issues[0]?.message).toBe('Invalid email address');
  });

  it('names the field inside a sentence for import rows and sync problems', () => {
    expect(invalidCharacterIn('Brand')).toBe('Brand contains an invalid character');
  });

  it('covers contact tags in both forms, naming the list item', () => {
    const base = { firstName: 'Jo', lastName: 'Lee', entityType: 'event', entityId: 1 };
    const asString = ContactInputSchema.safeParse({ ...base, mailchimpTags: 'vip, \udc00x' });
    expect(asString.error?.issues).toEqual([expect.objectContaining({ message: INVALID_CHARACTER, path: ['mailchimpTags'] })]);
    const asList = ContactInputSchema.safeParse({ ...base, mailchimpTags: ['vip', 'a\u0000b'] });
    expect(asList.error?.issues).toEqual([expect.objectContaining({ message: INVALID_CHARACTER, path: ['mailchimpTags', 1] })]);
    expect(ContactInputSchema.parse({ ...base, mailchimpTags: `vip, ${RUNNER}` }).mailchimpTags).toEqual(['vip', RUNNER]);
  });

  it('covers the newsletter push options (CLI input)', () => {
    for (const field of ['audienceId', 'tag']) {
      const parsed = PushOptionsSchema.safeParse({ audienceId: 'abc123', [field]: 'a\u0000b' });
      expect(parsed.error?.issues).toEqual([expect.objectContaining({ message: INVALID_CHARACTER, path: [field] })]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { keysOf, nameSimilarity, normaliseEmail, normaliseName, normalisePhone, pairScore } from '@services/duplicates/keys.js';

describe('duplicate keys', () => {
  it('normalise an email to one inbox (case, spaces) without folding gmail dots or plus tags', () => {
    expect(normaliseEmail('  Sam.Lee@Example.ORG ')).toBe('sam.lee@example.org');
    expect(normaliseEmail('s.a.m@gmail.com')).not.toBe(normaliseEmail('sam@gmail.com'));
    expect(normaliseEmail('sam+news@gmail.com')).not.toBe(normaliseEmail('sam@gmail.com'));
    expect(normaliseEmail('not an email')).toBe('');
  });

  it('normalise a phone to its digits with the Australian +61/0061 prefix folded', () => {
    for (const phone of ['+61 412 345 678', '0061 412 345 678', '0412-345-678', '(04) 1234 5678', '61412345678', '412345678'])
      expect(normalisePhone(phone)).toBe(phone === '(04) 1234 5678' ? '0412345678' : '0412345678');
    expect(normalisePhone('+61 2 9876 5432')).toBe('0298765432');
    expect(normalisePhone('0412 345 679')).not.toBe(normalisePhone('0412 345 678'));
    expect(normalisePhone('123')).toBe('');
  });

  it('normalise a name: case, punctuation, accents, "&", legal forms and a leading "The"', () => {
    const same = [
      'Sole Motive',
      'Solemotive Pty Ltd',
      'SOLE-MOTIVE PTY. LTD.',
      'The Sole Motive Company',
      'Sole Motive Inc',
      'Sole Motive Limited',
      'Sole Motive Co',
    ];
    for (const name of same) expect(normaliseName(name)).toBe('solemotive');
    expect(normaliseName('Café Crème & Co')).toBe(normaliseName('cafe creme and'));
    expect(normaliseName('Sole Motive Kids')).not.toBe('solemotive');
    expect(normaliseName('Pty Ltd')).toBe('');
  });

  it('score name similarity 0–1 and pairs by their reasons', () => {
    expect(nameSimilarity('stridewellrunning', 'stridewelruning')).toBeGreaterThan(0.5);
    expect(nameSimilarity('stridewellrunning', 'harbourshoes')).toBeLessThan(0.2);
    expect(nameSimilarity('abc', 'abc')).toBe(1);
    expect(pairScore([0.95])).toBe(0.95);
    expect(pairScore([0.95, 0.9])).toBe(1);
    expect(pairScore([])).toBe(0);
  });

  it('give each kind its own keys: contacts by email and phone, records by name, influencers by all three', () => {
    expect(keysOf('contact', { firstName: 'Sam', email: 'SAM@x.org', phone: '' })).toEqual([{ keyType: 'email', keyValue: 'sam@x.org' }]);
    expect(keysOf('brand', { brandName: 'Pace Lab Pty Ltd' })).toEqual([{ keyType: 'name', keyValue: 'pacelab' }]);
    expect(
      keysOf('influencer', { firstName: 'Jo', lastName: 'Ng', email: 'jo@x.org', phone: '0400 111 222' }).map((key) => key.keyType),
    ).toEqual(['email', 'phone', 'name']);
    expect(keysOf('event', { eventName: '' })).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { BoundedCache } from '@shared/bounded-cache.js';

describe('bounded cache', () => {
  it('computes a value once per key, null included, and starts over when full', () => {
    const cache = new BoundedCache<string, string | null>(2);
    const computed: string[] = [];
    const get = (key: string) =>
      cache.get(key, () => {
        computed.push(key);
        return key === 'none' ? null : key.toUpperCase();
      });
    expect([get('a'), get('a'), get('none'), get('none')]).toEqual(['A', 'A', null, null]);
    expect(computed).toEqual(['a', 'none']);
    // A third key fills past the limit: the cache starts over, so 'a' is computed again later.
    expect(get('b')).toBe('B');
    expect(get('a')).toBe('A');
    expect(computed).toEqual(['a', 'none', 'b', 'a']);
  });
});

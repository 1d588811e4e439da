/**
 * Values computed once per key and then reused, up to `limit` keys; when full it starts over. Used where the keys
 * come from clients (headers, cookies, paths) or from a working set that could drift, so memory stays bounded.
 */
export class BoundedCache<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K, compute: () => V): V {
    const known = this.values.get(key);
    if (known !== undefined || this.values.has(key)) return known as V;
    const value = compute();
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}

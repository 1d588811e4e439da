import type { RecordConfig } from './record-config.js';

/** A route action: whatever the page's action maker returns. */
type Action = (...args: never[]) => Promise<unknown>;

/**
 * A page's action, loaded when one of its forms posts. The writes (a record's delete, its contacts, payments and
 * files, a list's bulk and view changes) then stay out of the page's first load, which every visit waits for.
 */
export function lazyAction<A extends Action>(config: RecordConfig, load: () => Promise<(config: RecordConfig) => A>): A {
  let action: A | undefined;
  return (async (...args: Parameters<A>) => {
    action ??= (await load())(config);
    return action(...args);
  }) as A;
}

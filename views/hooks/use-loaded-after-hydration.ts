import { useEffect, useState } from 'react';

/** Modules already loaded, by their loader: a component mounted later (a client-side navigation) has them at once. */
const loadedModules = new Map<() => Promise<unknown>, unknown>();

/**
 * A module of the screen that is not needed to show the page (a Radix dialog, toast or tooltip): loaded once the
 * component has mounted, that is after hydration, so it stays out of the page's first load; null until then. The
 * server and the hydrating browser both render without it, so hydration sees the same tree (nothing is loaded
 * before the first effect runs, which is after hydration). `load` must be the same function on every render
 * (declare it at module level).
 */
export function useLoadedAfterHydration<M>(load: () => Promise<M>): M | null {
  const [loaded, setLoaded] = useState(() => (loadedModules.has(load) ? { module: loadedModules.get(load) as M } : null));
  useEffect(() => {
    if (loaded) return;
    let mounted = true;
    void load().then((module) => {
      loadedModules.set(load, module);
      if (mounted) setLoaded({ module });
    });
    return () => {
      mounted = false;
    };
  }, [load, loaded]);
  return loaded?.module ?? null;
}

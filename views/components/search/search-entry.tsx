import { useEffect, useState, type ComponentProps } from 'react';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

/** Ctrl+K / ⌘K opens the command palette. */
export const isPaletteShortcut = (event: KeyboardEvent) => (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';

/** The header's search box: the button that opens the command palette. */
export function SearchButton(props: ComponentProps<'button'>) {
  return (
    <button type="button" className="header-search" aria-keyshortcuts="Control+K Meta+K" {...props}>
      <span>Search…</span>
      <kbd aria-hidden="true">Ctrl K</kbd>
    </button>
  );
}

const loadCommandPalette = () => import('./command-palette.js');

/**
 * The header's search: the command palette (on Radix's dialog) loads after hydration, out of the page's first
 * load; until then its button, and Ctrl+K, ask for it, and it opens as soon as it has loaded.
 */
export function SearchEntry() {
  const palette = useLoadedAfterHydration(loadCommandPalette);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (palette) return;
    const onKey = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault();
      setAsked(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [palette]);
  return palette ? <palette.CommandPalette initiallyOpen={asked} /> : <SearchButton onClick={() => setAsked(true)} />;
}

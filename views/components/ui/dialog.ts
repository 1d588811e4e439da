import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

const loadDialog = () => import('@radix-ui/react-dialog');

/**
 * Radix's dialog (~13 KB gzip with its focus, scroll and layer helpers), loaded after hydration so that no page
 * carries it in its first load; null until then. Until it is here a dialog renders its trigger alone, and a click
 * on the trigger opens the dialog as soon as it has loaded.
 */
export const useDialogPrimitive = () => useLoadedAfterHydration(loadDialog);

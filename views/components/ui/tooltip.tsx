import type { ReactElement } from 'react';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

export interface TooltipProps {
  label: string;
  children: ReactElement;
}

/**
 * A tooltip on its child. Its view (Radix's tooltip) is not part of any page's first load: until it has loaded,
 * after hydration, the child shows on its own (as the server rendered it).
 */
const loadTooltipView = () => import('./tooltip-view.js');

export function Tooltip({ label, children }: TooltipProps) {
  const view = useLoadedAfterHydration(loadTooltipView);
  return view ? <view.TooltipView label={label}>{children}</view.TooltipView> : children;
}

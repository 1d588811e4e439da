import { useEffect, useState, type ComponentType, type ReactElement } from 'react';

export interface TooltipProps {
  label: string;
  children: ReactElement;
}

/**
 * A tooltip on its child. Its view (Radix's tooltip) is not part of any page's first load: until it has loaded,
 * after hydration, the child shows on its own (as the server rendered it).
 */
export function Tooltip({ label, children }: TooltipProps) {
  const [View, setView] = useState<ComponentType<TooltipProps> | null>(null);
  useEffect(() => {
    let mounted = true;
    void import('./tooltip-view.js').then((module) => {
      if (mounted) setView(() => module.TooltipView);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return View ? <View label={label}>{children}</View> : children;
}

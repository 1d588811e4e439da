import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { TooltipProps } from './tooltip.js';

/** Tooltips open after 700 ms, and others open at once within 300 ms of one closing (spec point 9). */
export function TooltipView({ label, children }: TooltipProps) {
  return (
    <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300}>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content className="tooltip" sideOffset={4}>
            {label}
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}

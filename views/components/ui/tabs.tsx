import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
}

interface TabsProps {
  items: readonly TabItem[];
  /** The tab list's accessible name. */
  label: string;
  /** The open tab, when the caller keeps it (e.g. in the URL); otherwise `defaultValue` opens first. */
  value?: string;
  defaultValue?: string;
  onValueChange?(value: string): void;
  className?: string;
  panelClassName?: string;
  /** Every panel stays mounted (the closed ones hidden), so what one holds survives switching tabs. */
  keepMounted?: boolean;
}

/**
 * Tabs as WAI-ARIA describes them (the markup and behaviour Radix's tabs had, without their ~8 KB gzip in the
 * first load): a tab opens on a press of the main mouse button, on Enter or Space, and when focus reaches it; the
 * arrow keys move along the list (wrapping), Home and End go to its ends; only the open tab is in the Tab order.
 */
export function Tabs({ items, label, value, defaultValue, onValueChange, className, panelClassName, keepMounted }: TabsProps) {
  const [own, setOwn] = useState(defaultValue ?? items[0]?.value);
  const open = value ?? own;
  const base = useId();
  const select = (next: string) => {
    if (next === open) return;
    if (value === undefined) setOwn(next);
    onValueChange?.(next);
  };
  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined || at < 0) return;
    event.preventDefault();
    tabs[(to + tabs.length) % tabs.length]?.focus();
  };
  return (
    <div className={className} data-orientation="horizontal">
      <div role="tablist" aria-orientation="horizontal" aria-label={label} className="tabs-list" onKeyDown={moveFocus}>
        {items.map((item) => {
          const active = item.value === open;
          return (
            <button
              key={item.value}
              type="button"
              role="tab"
              id={`${base}-tab-${item.value}`}
              aria-selected={active}
              aria-controls={`${base}-panel-${item.value}`}
              data-state={active ? 'active' : 'inactive'}
              tabIndex={active ? 0 : -1}
              className="tabs-trigger"
              onMouseDown={(event) => {
                if (event.button === 0 && !event.ctrlKey) select(item.value);
                else event.preventDefault();
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') select(item.value);
              }}
              onFocus={() => select(item.value)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => {
        const active = item.value === open;
        return (
          <div
            key={item.value}
            role="tabpanel"
            id={`${base}-panel-${item.value}`}
            aria-labelledby={`${base}-tab-${item.value}`}
            data-state={active ? 'active' : 'inactive'}
            hidden={!active}
            tabIndex={0}
            className={panelClassName}
          >
            {(active || keepMounted) && item.content}
          </div>
        );
      })}
    </div>
  );
}

import type { ReactNode } from 'react';
import { Button, Input } from './primitives.js';
import { toast } from './toast.js';

/**
 * A value shown once, right after it is made (a link, a secret, a token): what it is (`children`), then the value
 * read-only, selected on focus, with a Copy button.
 */
export function ShownOnce({
  title,
  value,
  label,
  copiedTitle,
  children,
}: {
  /** The panel's accessible name. */
  title: string;
  value: string;
  /** The value field's accessible name. */
  label: string;
  copiedTitle: string;
  children: ReactNode;
}) {
  return (
    <div className="settings-link" role="status" aria-label={title}>
      <p>{children}</p>
      <div className="settings-link-row">
        <Input readOnly value={value} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
        <Button variant="outline" onClick={() => void navigator.clipboard?.writeText(value).then(() => toast({ title: copiedTitle }))}>
          Copy
        </Button>
      </div>
    </div>
  );
}

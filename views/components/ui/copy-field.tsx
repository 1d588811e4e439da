import { Button, Input } from './primitives.js';
import { toast } from './toast.js';

/** A value shown once (a link, a secret, a token): read-only, selected on focus, with a Copy button. */
export function CopyField({ value, label, copiedTitle }: { value: string; label: string; copiedTitle: string }) {
  return (
    <div className="settings-link-row">
      <Input readOnly value={value} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
      <Button variant="outline" onClick={() => void navigator.clipboard?.writeText(value).then(() => toast({ title: copiedTitle }))}>
        Copy
      </Button>
    </div>
  );
}

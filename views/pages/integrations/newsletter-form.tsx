import { useState, type FormEvent } from 'react';
import { messageOf } from '@shared/api-error.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, type ContactOwnerType } from '@shared/record-types.js';
import { isFinished } from '@shared/schemas/jobs.js';
import { describePush, type PushResult } from '@shared/schemas/newsletter.js';
import type { MailchimpAudience } from '@shared/schemas/integrations.js';
import { AudienceSelect } from '@views/components/mailchimp/audience-select.js';
import { Button, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { apiRequest } from '@views/data/http.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { cancelJob, JobProgressBar, useActiveJobs, useJob } from '../jobs/job-progress.js';
import { PushSummary } from './push-summary.js';

const emptyPush = { audienceId: '', ownerType: '' as ContactOwnerType | '', tag: '', dryRun: true };

/**
 * Pushes contacts with an email to an audience (upserts with their tags), as `pacer newsletter push` does, run as a
 * job: the form answers at once and follows it; a push already running when the page opens is followed too.
 */
export function NewsletterPushForm({ audiences }: { audiences: MailchimpAudience[] }) {
  const [form, setForm] = useState(emptyPush);
  const [starting, setStarting] = useState(false);
  const [startedId, setStartedId] = useState<number | null>(null);
  const canWrite = useCanWrite();
  const active = useActiveJobs('newsletter');
  const followed = startedId ?? active.jobs?.[0]?.id ?? null;
  const job = useJob(
    followed,
    (finished) => {
      if (finished.state === 'succeeded') {
        toast({
          title: 'Newsletter push finished',
          description: describePush(finished.result as unknown as PushResult, String(finished.params.audienceId)),
        });
      } else if (finished.state === 'failed') {
        toast({ title: 'Newsletter push failed', description: finished.error?.message || 'The push failed', variant: 'destructive' });
      } else {
        toast({
          title: 'Newsletter push cancelled',
          description: `Stopped after ${finished.progress.done.toLocaleString('en')} contacts.`,
        });
      }
    },
    followed !== null && followed === startedId,
  );
  const running = job !== null && !isFinished(job.state);
  const busy = starting || running || (followed !== null && job === null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.audienceId) {
      toast({ title: 'Missing Information', description: 'Please select an audience', variant: 'destructive' });
      return;
    }
    setStarting(true);
    try {
      const params = {
        audienceId: form.audienceId,
        ...(form.ownerType ? { ownerType: form.ownerType } : {}),
        ...(form.tag.trim() ? { tag: form.tag.trim() } : {}),
        dryRun: form.dryRun,
      };
      const started = await apiRequest<{ id: number }>('POST', '/api/jobs', { type: 'newsletter', params });
      setStartedId(started.id);
    } catch (error) {
      toast({ title: 'Newsletter push failed', description: messageOf(error, 'The push could not start'), variant: 'destructive' });
    } finally {
      setStarting(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate data-testid="push-form">
      <p className="muted">
        Adds or updates every contact with an email address in the audience, with their tags. A dry run only counts them.
      </p>
      <div className="form-grid">
        <div className="field">
          <Label htmlFor="push-audience" required>
            Audience
          </Label>
          <AudienceSelect
            id="push-audience"
            audiences={audiences}
            value={form.audienceId}
            onChange={(audienceId) => setForm((f) => ({ ...f, audienceId }))}
          />
        </div>
        <div className="field">
          <Label htmlFor="push-owner-type">Contacts of</Label>
          <select
            id="push-owner-type"
            className="input"
            value={form.ownerType}
            onChange={(event) => setForm((f) => ({ ...f, ownerType: event.target.value as ContactOwnerType | '' }))}
          >
            <option value="">All record types</option>
            {CONTACT_OWNER_TYPES.map((type) => (
              <option key={type} value={type}>
                {RECORD_TYPE_INFO[type].plural}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <Label htmlFor="push-tag">Only with tag</Label>
          <Input
            id="push-tag"
            value={form.tag}
            onChange={(event) => setForm((f) => ({ ...f, tag: event.target.value }))}
            placeholder="Any tag"
          />
        </div>
        <div className="field">
          <div className="checkbox-row">
            <input
              id="push-dry-run"
              type="checkbox"
              checked={form.dryRun}
              onChange={(event) => setForm((f) => ({ ...f, dryRun: event.target.checked }))}
            />
            <Label htmlFor="push-dry-run">Dry run (count only, push nothing)</Label>
          </div>
        </div>
      </div>
      <div className="form-actions">
        {canWrite ? (
          <Button type="submit" disabled={busy}>
            {busy ? 'Pushing...' : 'Push Contacts'}
          </Button>
        ) : (
          <p className="muted">Viewers can see pushes on the Jobs page but not start one.</p>
        )}
      </div>
      {job && running && (
        <JobProgressBar job={job} unit="contacts" onCancel={canWrite ? () => void cancelJob(followed, 'the push') : undefined} />
      )}
      {job?.state === 'succeeded' && <PushSummary job={job} />}
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { messageOf } from '@shared/api-error.js';
import { Button, Card, CardHeader, EmptyState, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { apiRequest } from '@views/data/http.js';
import { ConnectionCard } from './connection-card.js';
import { runConnectionTest } from './connection-test.js';
import { NewsletterPushForm } from './newsletter-form.js';
import type { ServiceTabProps } from './types.js';
import type { MailchimpAccount, MailchimpAudience } from '@shared/schemas/integrations.js';
import { AudienceSelect } from '@views/components/mailchimp/audience-select.js';

/** Spec point 5: split on commas, trimmed, empty entries dropped. */
export function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

const emptyMember = { audienceId: '', email: '', firstName: '', lastName: '', phone: '', tags: '' };

function AddMemberForm({ audiences }: { audiences: MailchimpAudience[] }) {
  const [form, setForm] = useState(emptyMember);
  const [saving, setSaving] = useState(false);
  const set = (field: keyof typeof emptyMember) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.audienceId || !form.email.trim()) {
      toast({
        title: 'Missing Information',
        description: 'Please select an audience and provide an email address',
        variant: 'destructive',
      });
      return;
    }
    setSaving(true);
    try {
      const result = await apiRequest<{ success: boolean; message: string }>(
        'POST',
        `/api/mailchimp/audiences/${encodeURIComponent(form.audienceId)}/members`,
        {
          email: form.email.trim(),
          firstName: form.firstName,
          lastName: form.lastName,
          phone: form.phone,
          tags: parseTags(form.tags),
        },
      );
      toast({ title: 'Member Added Successfully', description: result.message });
      setForm({ ...emptyMember, audienceId: form.audienceId });
    } catch (error) {
      toast({ title: 'Failed to Add Member', description: messageOf(error, 'Failed to add member'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate data-testid="add-member-form">
      <div className="form-grid">
        <div className="field">
          <Label htmlFor="member-audience" required>
            Audience
          </Label>
          <AudienceSelect
            id="member-audience"
            audiences={audiences}
            value={form.audienceId}
            onChange={(audienceId) => setForm((f) => ({ ...f, audienceId }))}
          />
        </div>
        <div className="field">
          <Label htmlFor="member-email" required>
            Email
          </Label>
          <Input id="member-email" type="email" value={form.email} onChange={set('email')} autoComplete="off" />
        </div>
        <div className="field">
          <Label htmlFor="member-first-name">First name</Label>
          <Input id="member-first-name" value={form.firstName} onChange={set('firstName')} />
        </div>
        <div className="field">
          <Label htmlFor="member-last-name">Last name</Label>
          <Input id="member-last-name" value={form.lastName} onChange={set('lastName')} />
        </div>
        <div className="field">
          <Label htmlFor="member-phone">Phone</Label>
          <Input id="member-phone" type="tel" value={form.phone} onChange={set('phone')} />
        </div>
        <div className="field">
          <Label htmlFor="member-tags">Tags</Label>
          <Input id="member-tags" value={form.tags} onChange={set('tags')} placeholder="Comma separated, e.g. Race Director, VIP" />
        </div>
      </div>
      <div className="form-actions">
        <Button type="submit" disabled={saving}>
          {saving ? 'Adding...' : 'Add Member'}
        </Button>
      </div>
    </form>
  );
}

export function MailchimpTab({ overview, status, onStatus }: ServiceTabProps) {
  const [account, setAccount] = useState<MailchimpAccount | null>(null);
  const [audiences, setAudiences] = useState<MailchimpAudience[] | null>(null);
  const [loadingAudiences, setLoadingAudiences] = useState(false);

  async function loadAudiences() {
    setLoadingAudiences(true);
    try {
      setAudiences(await apiRequest<MailchimpAudience[]>('GET', '/api/mailchimp/audiences'));
    } catch (error) {
      toast({ title: 'Failed to Load Audiences', description: messageOf(error, 'Failed to load audiences'), variant: 'destructive' });
    } finally {
      setLoadingAudiences(false);
    }
  }

  async function test() {
    onStatus('testing');
    const result = await runConnectionTest<{ success: boolean; message: string; data?: MailchimpAccount }>('/api/mailchimp/test');
    onStatus(result ? 'connected' : 'failed');
    setAccount(result?.data ?? null);
    if (result) await loadAudiences();
  }

  return (
    <div className="integration-tab">
      <ConnectionCard
        status={status}
        onTest={test}
        statusTestId="mailchimp-status"
        configured={overview.mailchimp.configured}
        service="Mailchimp"
        settings="MAILCHIMP_API_KEY"
      >
        {account && (
          <dl className="dl" data-testid="account-info">
            <dt>Account</dt>
            <dd>{account.account_name}</dd>
            <dt>Email</dt>
            <dd>{account.email}</dd>
            <dt>Industry</dt>
            <dd>{account.industry || '—'}</dd>
            <dt>Subscribers</dt>
            <dd>{account.total_subscribers.toLocaleString()}</dd>
          </dl>
        )}
      </ConnectionCard>
      <Card>
        <CardHeader
          title="Audiences"
          actions={
            <Button variant="outline" onClick={loadAudiences} disabled={loadingAudiences}>
              {loadingAudiences ? 'Loading...' : audiences ? 'Refresh' : 'Load Audiences'}
            </Button>
          }
        />
        {audiences === null ? (
          <p className="muted">Test the connection or load the audiences to see them here.</p>
        ) : audiences.length === 0 ? (
          <EmptyState title="No audiences" />
        ) : (
          <ul className="audience-list" data-testid="audience-list">
            {audiences.map((audience) => (
              <li key={audience.id}>
                <span>{audience.name}</span>
                <span className="muted">{audience.stats.member_count.toLocaleString()} members</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <CardHeader title="Add Member" />
        <AddMemberForm audiences={audiences ?? []} />
      </Card>
      <Card data-testid="push-card">
        <CardHeader title="Push Contacts" />
        <NewsletterPushForm audiences={audiences ?? []} />
      </Card>
    </div>
  );
}

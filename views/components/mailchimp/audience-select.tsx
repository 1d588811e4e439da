import type { MailchimpAudience } from '@shared/schemas/integrations.js';

interface AudienceSelectProps {
  id: string;
  audiences: readonly MailchimpAudience[];
  value: string;
  onChange: (audienceId: string) => void;
  disabled?: boolean;
  /** The empty choice's text: "Select an audience" unless the list is still loading. */
  placeholder?: string;
}

/** The Mailchimp audience picker of the add-member form, the newsletter push and the contacts' bulk add. */
export function AudienceSelect({ id, audiences, value, onChange, disabled, placeholder = 'Select an audience' }: AudienceSelectProps) {
  return (
    <select id={id} className="input" value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
      <option value="">{placeholder}</option>
      {audiences.map((audience) => (
        <option key={audience.id} value={audience.id}>
          {audience.name}
        </option>
      ))}
    </select>
  );
}

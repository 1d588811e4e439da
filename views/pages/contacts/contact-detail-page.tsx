import { ActivityTimeline } from '@views/components/activity/activity-timeline.js';
import { HistoryPanel } from '@views/components/history/history-panel.js';
import { NotesAndTasks } from '@views/components/notes/activity-tabs.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { useLoaderData } from 'react-router';
import { contactDetailAction } from '@views/components/attachments/actions.js';
import { ContactOf } from '@views/components/attachments/owner-link.js';
import { contactEditPath, fullName } from '@views/components/attachments/paths.js';
import { deleteFields } from '@views/components/records/delete-fields.js';
import { ConfirmDeleteButton, useDeleteRecord } from '@views/components/records/delete-dialog.js';
import { InfoList, NotFoundView, PageHeader } from '@views/components/records/detail.js';
import { ButtonLink } from '@views/components/ui/button-link.js';
import { Badge, Card } from '@views/components/ui/primitives.js';
import { contactLoader, type ContactPageData } from './loaders.js';

export const loader = contactLoader;
/** Delete: the action removes the contact and goes to the return path. */
export const action = contactDetailAction;

export function Component() {
  const { contact, returnTo } = useLoaderData() as ContactPageData;
  const deleteContact = useDeleteRecord();
  const canWrite = useCanWrite();
  if (!contact) return <NotFoundView title="Contact not found" backTo={returnTo} backLabel="Return Back" />;

  return (
    <div className="page">
      <PageHeader
        backTo={returnTo}
        backLabel="Back"
        title={fullName(contact)}
        badges={contact.isPrimary ? <Badge tone="info">Primary</Badge> : undefined}
        actions={
          canWrite && (
            <>
              <ButtonLink to={contactEditPath(contact.id, returnTo)}>Edit Contact</ButtonLink>
              <ConfirmDeleteButton
                question="Are you sure you want to delete this contact? This action cannot be undone."
                postFields={deleteFields(contact.id)}
                onConfirm={() => deleteContact(contact.id)}
              />
            </>
          )
        }
      />
      <ContactOf owner={contact.owner} />
      <Card className="attachments-contact-detail">
        <InfoList
          items={[
            { label: 'Name', value: fullName(contact) },
            { label: 'Job title', value: contact.jobTitle },
            { label: 'Email', value: contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : null },
            { label: 'Phone', value: contact.phone ? <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a> : null },
            { label: 'Notes', value: contact.notes ? <span className="attachments-notes">{contact.notes}</span> : null },
            {
              label: 'Email-marketing tags',
              value: contact.mailchimpTags.length ? (
                <span className="attachments-tags">
                  {contact.mailchimpTags.map((tag) => (
                    <Badge key={tag}>{tag}</Badge>
                  ))}
                </span>
              ) : null,
            },
          ]}
        />
      </Card>
      <NotesAndTasks />
      <ActivityTimeline apiPath={`/api/contacts/${contact.id}`} contact />
      <HistoryPanel apiPath={`/api/contacts/${contact.id}`} noun="contact" />
    </div>
  );
}

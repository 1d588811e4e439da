import { useLoaderData } from 'react-router';
import { contactEditAction } from '@views/components/attachments/actions.js';
import { ContactForm } from '@views/components/attachments/contact-form.js';
import { ContactOf } from '@views/components/attachments/owner-link.js';
import { editMissingText, NotFoundView, PageHeader } from '@views/components/records/detail.js';
import { Card } from '@views/components/ui/primitives.js';
import { contactLoader, type ContactPageData } from './loaders.js';

export const loader = contactLoader;
export const action = contactEditAction;

/** /contacts/:id/edit?return=…: saving or cancelling goes back to the return path. */
export function Component() {
  const { contact, returnTo } = useLoaderData() as ContactPageData;
  if (!contact)
    return <NotFoundView title="Contact not found" message={editMissingText('contact')} backTo={returnTo} backLabel="Return Back" />;
  return (
    <div className="page">
      <PageHeader backTo={returnTo} backLabel="Back" title="Edit Contact" />
      <ContactOf owner={contact.owner} />
      <Card>
        <ContactForm ownerType={contact.entityType} ownerId={contact.entityId} contact={contact} place={{ cancelTo: returnTo }} />
      </Card>
    </div>
  );
}

import { useLoaderData, useNavigate } from 'react-router';
import { contactFailure, saveContact } from '../../components/attachments/contact-actions.js';
import { ContactForm } from '../../components/attachments/contact-form.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { Card } from '../../components/ui/primitives.js';
import { toast } from '../../components/ui/toast.js';
import { contactLoader, type ContactPageData } from './loaders.js';

export const loader = contactLoader;

/** /contacts/:id/edit?return=…: saving or cancelling goes back to the return path. */
export function Component() {
  const { contact, returnTo } = useLoaderData() as ContactPageData;
  const navigate = useNavigate();
  if (!contact) return <NotFoundView title="Contact not found" message={editMissingText('contact')} backTo={returnTo} backLabel="Return Back" />;
  return (
    <div className="page">
      <PageHeader backTo={returnTo} backLabel="Back" title="Edit Contact" />
      <Card>
        <ContactForm
          ownerType={contact.entityType}
          ownerId={contact.entityId}
          contact={contact}
          onCancel={() => void navigate(returnTo)}
          onSubmit={async (body) => {
            try {
              await saveContact(body, contact.id);
            } catch (error) {
              contactFailure(error, 'Failed to update contact');
              return;
            }
            toast({ title: 'Contact updated successfully' });
            await navigate(returnTo);
          }}
        />
      </Card>
    </div>
  );
}

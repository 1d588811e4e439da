import { useLoaderData, useNavigate } from 'react-router';
import { contactFailure, saveContact } from '../../components/attachments/contact-actions.js';
import { ContactForm } from '../../components/attachments/contact-form.js';
import { ownerDetailPath } from '../../components/attachments/paths.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { Card } from '../../components/ui/primitives.js';
import { toast } from '../../components/ui/toast.js';
import { ownerContactLoader, type OwnerContactPageData } from './loaders.js';

export const loader = ownerContactLoader;

const OWNER_NOT_FOUND = {
  event: 'Event not found',
  professional: 'Professional not found',
  runclub: 'Run Club not found',
  brand: 'Brand not found',
  media: 'Media outlet not found',
} as const;

const TABBED_OWNERS = new Set(['event', 'professional', 'runclub']);

/** Add or edit a contact of an event, professional, run club, brand or media outlet; back to the owner afterwards. */
export function Component() {
  const { ownerType, ownerId, contact, mode, found } = useLoaderData() as OwnerContactPageData;
  const navigate = useNavigate();
  const ownerPage = ownerDetailPath(ownerType, ownerId);
  // Tabbed detail pages open on their Contacts tab, where the user came from.
  const backTo = TABBED_OWNERS.has(ownerType) ? `${ownerPage}?tab=contacts` : ownerPage;
  if (!found) {
    return mode === 'edit' ? (
      <NotFoundView title="Contact not found" message={editMissingText('contact')} backTo={ownerId ? ownerPage : '/'} backLabel="Return Back" />
    ) : (
      <NotFoundView title={OWNER_NOT_FOUND[ownerType]} backTo={`/${ownerPage.split('/')[1]}`} backLabel="Return Back" />
    );
  }
  return (
    <div className="page">
      <PageHeader backTo={backTo} backLabel="Back" title={mode === 'edit' ? 'Edit Contact' : 'Add Contact'} />
      <Card>
        <ContactForm
          ownerType={ownerType}
          ownerId={ownerId}
          contact={contact}
          onCancel={() => void navigate(backTo)}
          onSubmit={async (body) => {
            try {
              await saveContact(body, contact?.id);
            } catch (error) {
              contactFailure(error, contact ? 'Failed to update contact' : 'Failed to create contact');
              return;
            }
            toast({ title: contact ? 'Contact updated successfully' : 'Contact created successfully' });
            await navigate(backTo);
          }}
        />
      </Card>
    </div>
  );
}

import { useLoaderData } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';
import { ownerContactAction } from '@views/components/attachments/actions.js';
import { ContactForm } from '@views/components/attachments/contact-form.js';
import { ContactOf } from '@views/components/attachments/owner-link.js';
import { ownerContactsPath, ownerDetailPath } from '@views/components/attachments/paths.js';
import { editMissingText, NotFoundView, PageHeader } from '@views/components/records/detail.js';
import { Card } from '@views/components/ui/primitives.js';
import { ownerContactLoader, type OwnerContactPageData } from './loaders.js';

export const loader = ownerContactLoader;
export const action = ownerContactAction;

/** Add or edit a contact of an event, professional, run club, brand or media outlet; back to the owner afterwards. */
export function Component() {
  const { ownerType, ownerId, contact, owner, mode, found } = useLoaderData() as OwnerContactPageData;
  const ownerPage = ownerDetailPath(ownerType, ownerId);
  const backTo = ownerContactsPath(ownerType, ownerId);
  if (!found || !owner) {
    return mode === 'edit' ? (
      <NotFoundView
        title="Contact not found"
        message={editMissingText('contact')}
        backTo={ownerId ? ownerPage : '/'}
        backLabel="Return Back"
      />
    ) : (
      <NotFoundView title={RECORD_TYPE_INFO[ownerType].notFound} backTo={RECORD_TYPE_INFO[ownerType].path} backLabel="Return Back" />
    );
  }
  return (
    <div className="page">
      <PageHeader backTo={backTo} backLabel="Back" title={mode === 'edit' ? 'Edit Contact' : 'Add Contact'} />
      <ContactOf owner={owner} />
      <Card>
        {/* Posts this page: its action saves and goes back to the owner (views/components/attachments/actions.ts). */}
        <ContactForm ownerType={ownerType} ownerId={ownerId} contact={contact} place={{ cancelTo: backTo }} />
      </Card>
    </div>
  );
}

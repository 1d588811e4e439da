import { useCanWrite } from '@views/hooks/use-session.js';
import { useCallback, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ContactOwnerType } from '@shared/record-types.js';
import { deleteFields } from '../records/delete-fields.js';
import { ConfirmDeleteButton, useDeleteRecord } from '../records/delete-dialog.js';
import { Button, Card, CardHeader } from '../ui/primitives.js';
import { openUnlessInteractive } from './contacts-tab.js';
import { contactDetailPath, contactEditPath, fullName, ownerDetailPath } from './paths.js';
import type { Contact } from '@shared/schemas/attachments.js';
import { useDialogPrimitive } from '../ui/dialog.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

const loadContactForm = () => import('./contact-form.js');

/**
 * The Add/Edit Contact dialog: creates when no contact is given, updates when one is (spec point 4). Its form
 * posts the detail page's `save-contact` intent through a fetcher, and the dialog closes once it is saved.
 */
function ContactDialog({
  ownerType,
  ownerId,
  contact,
  open,
  onOpenChange,
}: {
  ownerType: ContactOwnerType;
  ownerId: number;
  contact: Contact | null;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const close = useCallback(() => onOpenChange(false), [onOpenChange]);
  const Dialog = useDialogPrimitive();
  // The form loads with the dialog, after hydration: the card shows without it.
  const form = useLoadedAfterHydration(loadContactForm);
  if (!Dialog || !form) return null;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog attachments-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">{contact ? 'Edit Contact' : 'Add Contact'}</Dialog.Title>
          <form.ContactForm
            key={contact?.id ?? 'new'}
            ownerType={ownerType}
            ownerId={ownerId}
            contact={contact}
            place={{ onSaved: close, onCancel: close }}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Contacts card with the Add/Edit Contact dialog, on brand and media detail. */
export function ContactsCard({ ownerType, ownerId, contacts }: { ownerType: ContactOwnerType; ownerId: number; contacts: Contact[] }) {
  const location = useLocation();
  const navigate = useNavigate();
  const deleteContact = useDeleteRecord('delete-contact');
  const [dialog, setDialog] = useState<{ open: boolean; contact: Contact | null }>({ open: false, contact: null });
  const here = location.pathname + location.search;
  const canWrite = useCanWrite();
  const openDialog = (contact: Contact | null) => setDialog({ open: true, contact });
  const setDialogOpen = useCallback((open: boolean) => setDialog((current) => ({ ...current, open })), []);

  const edit = (contact: Contact) => {
    // Media contacts are edited on the contact edit page, which returns to the outlet (spec point 2).
    if (ownerType === 'media') void navigate(contactEditPath(contact.id, ownerDetailPath('media', ownerId)));
    else openDialog(contact);
  };

  return (
    <Card className="attachments-card">
      <CardHeader
        title={`Contacts (${contacts.length})`}
        actions={canWrite && contacts.length > 0 && <Button onClick={() => openDialog(null)}>Add Contact</Button>}
      />
      {contacts.length === 0 ? (
        <div className="attachments-empty">
          <p className="muted">No contacts added yet</p>
          {canWrite && <Button onClick={() => openDialog(null)}>Add First Contact</Button>}
        </div>
      ) : (
        <ul className="attachments-list">
          {contacts.map((contact) => (
            <li
              key={contact.id}
              className="attachments-row"
              onClick={(event) => openUnlessInteractive(event, () => void navigate(contactDetailPath(contact.id, here)))}
            >
              <div className="attachments-contact-main">
                <Link className="attachments-contact-name" to={contactDetailPath(contact.id, here)}>
                  {fullName(contact)}
                </Link>
                {contact.jobTitle && <span className="muted">{contact.jobTitle}</span>}
                <span className="attachments-contact-links">
                  {contact.email && <a href={`mailto:${contact.email}`}>{contact.email}</a>}
                  {contact.phone && <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a>}
                </span>
              </div>
              <div className="card-actions">
                {canWrite && (
                  <Button variant="outline" className="btn-sm" onClick={() => edit(contact)} aria-label={`Edit ${fullName(contact)}`}>
                    Edit
                  </Button>
                )}
                <ConfirmDeleteButton
                  small
                  ariaLabel={`Delete ${fullName(contact)}`}
                  menuFor={fullName(contact)}
                  question="Are you sure you want to delete this contact?"
                  postFields={deleteFields(contact.id, false, 'delete-contact')}
                  onConfirm={() => deleteContact(contact.id)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <ContactDialog ownerType={ownerType} ownerId={ownerId} contact={dialog.contact} open={dialog.open} onOpenChange={setDialogOpen} />
    </Card>
  );
}

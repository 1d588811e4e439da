import { useCanWrite } from '@views/hooks/use-session.js';
import type { MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ContactOwnerType } from '@shared/record-types.js';
import { deleteFields } from '../records/delete-fields.js';
import { ConfirmDeleteButton, useDeleteRecord } from '../records/delete-dialog.js';
import { ButtonLink } from '../ui/button-link.js';
import { Badge, Card, CardHeader } from '../ui/primitives.js';
import { addContactPath, contactDetailPath, editContactPath, fullName } from './paths.js';
import type { Contact } from '@shared/schemas/attachments.js';

/** A click on the card's background opens the contact; its links and buttons keep their own meaning. */
export function openUnlessInteractive(event: MouseEvent, open: () => void) {
  if ((event.target as HTMLElement).closest('a, button, input, summary, details, [role="dialog"], [role="alertdialog"]')) return;
  open();
}

/** Contacts tab of event, professional and run club detail. */
export function ContactsTab({ ownerType, ownerId, contacts }: { ownerType: ContactOwnerType; ownerId: number; contacts: Contact[] }) {
  const location = useLocation();
  const navigate = useNavigate();
  // Posts the detail page's `delete-contact` intent; the page's action deletes and its loader reads the list again.
  const deleteContact = useDeleteRecord('delete-contact');
  const here = location.pathname + location.search;
  const canWrite = useCanWrite();

  return (
    <section className="attachments-contacts" aria-label="Contacts">
      <CardHeader title="Contacts" actions={canWrite && <ButtonLink to={addContactPath(ownerType, ownerId)}>Add Contact</ButtonLink>} />
      {contacts.length === 0 && <p className="muted">No contacts added yet</p>}
      <ul className="attachments-list">
        {contacts.map((contact) => (
          <li key={contact.id}>
            <Card
              className="attachments-contact"
              onClick={(event) => openUnlessInteractive(event, () => void navigate(contactDetailPath(contact.id, here)))}
            >
              <div className="attachments-contact-main">
                <div className="attachments-contact-name">
                  <Link to={contactDetailPath(contact.id, here)}>{fullName(contact)}</Link>
                  {contact.isPrimary && <Badge tone="info">Primary</Badge>}
                </div>
                {contact.jobTitle && <p className="muted">{contact.jobTitle}</p>}
                <p className="attachments-contact-links">
                  {contact.email && <a href={`mailto:${contact.email}`}>{contact.email}</a>}
                  {contact.phone && <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a>}
                </p>
                {contact.notes && <p className="attachments-notes">{contact.notes}</p>}
              </div>
              <div className="card-actions">
                {canWrite && (
                  <ButtonLink
                    variant="outline"
                    className="btn-sm"
                    to={editContactPath(ownerType, ownerId, contact.id)}
                    aria-label={`Edit ${fullName(contact)}`}
                  >
                    Edit
                  </ButtonLink>
                )}
                <ConfirmDeleteButton
                  small
                  ariaLabel={`Delete ${fullName(contact)}`}
                  menuFor={fullName(contact)}
                  question={`Are you sure you want to delete ${fullName(contact)}? This action cannot be undone.`}
                  postFields={deleteFields(contact.id, false, 'delete-contact')}
                  onConfirm={() => deleteContact(contact.id)}
                />
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

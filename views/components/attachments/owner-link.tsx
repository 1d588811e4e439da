import { Link } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';
import type { ContactOwner } from '@shared/schemas/contacts-directory.js';
import { ownerDetailPath } from './paths.js';

/** A contact's owner by name, linking to its detail page, with its type: "Sydney Harbour Half (Event)". */
export function OwnerLink({ owner }: { owner: ContactOwner }) {
  return (
    <Link to={ownerDetailPath(owner.type, owner.id)}>
      {owner.name} <span className="muted">({RECORD_TYPE_INFO[owner.type].singular})</span>
    </Link>
  );
}

/** The line under a contact page's title that names whose contact it is. */
export function ContactOf({ owner }: { owner: ContactOwner }) {
  return (
    <p className="contact-of" data-testid="contact-of">
      Contact of <OwnerLink owner={owner} />
    </p>
  );
}

import type { LoaderFunctionArgs } from 'react-router';
import type { ContactOwnerType } from '@shared/record-types.js';
import { ownerTypeFromPath, safeReturnPath } from '@views/components/attachments/paths.js';
import type { Contact } from '@shared/schemas/attachments.js';
import type { ContactOwner, DirectoryContact } from '@shared/schemas/contacts-directory.js';
import { getOrNull, parseRecordId } from '@views/components/records/loaders.js';
import { dataSource, gated, notFoundWhen } from '@views/data/source.js';

export interface ContactPageData {
  id: number;
  /** The contact with its owner (the pages name the owner); null when there is none. */
  contact: DirectoryContact | null;
  /** Where Back, Cancel, save and delete lead: the `return` query when it is a same-site path, else '/'. */
  returnTo: string;
}

/** /contacts/:id and /contacts/:id/edit: the contact (null when there is none; id 0 fetches nothing). */
export const contactLoader = gated(async ({ params, request, context }: LoaderFunctionArgs): Promise<ContactPageData> => {
  const id = parseRecordId(params.id);
  const contact = id ? await getOrNull(dataSource(context).contact(id)) : null;
  return notFoundWhen(contact === null, { id, contact, returnTo: safeReturnPath(new URL(request.url).searchParams.get('return')) });
});

export interface OwnerContactPageData {
  ownerType: ContactOwnerType;
  ownerId: number;
  /** The contact being edited; null on the add page or when it does not exist. */
  contact: Contact | null;
  /** The record the contact belongs to, by name; null when it (or the contact being edited) does not exist. */
  owner: ContactOwner | null;
  mode: 'add' | 'edit';
  /** False when the owner record (add page) or the contact (edit page) does not exist. */
  found: boolean;
}

/** The owner-scoped add and edit pages: the owner type comes from the path, the ids from its parameters. */
export const ownerContactLoader = gated(async ({ params, request, context }: LoaderFunctionArgs): Promise<OwnerContactPageData> => {
  const ownerType = ownerTypeFromPath(new URL(request.url).pathname) ?? 'event';
  const ownerId = parseRecordId(params.id);
  const ds = dataSource(context);
  if (params.contactId !== undefined) {
    const contactId = parseRecordId(params.contactId);
    const contact = contactId && ownerId ? await getOrNull(ds.contact(contactId)) : null;
    // A contact of another owner is not found here: saving would otherwise move it to this owner.
    const belongs = contact !== null && contact.entityType === ownerType && contact.entityId === ownerId;
    return notFoundWhen(!belongs, {
      ownerType,
      ownerId,
      contact: belongs ? contact : null,
      owner: belongs ? contact.owner : null,
      mode: 'edit',
      found: belongs,
    });
  }
  // The owner's read answers 404 when the owner does not exist.
  const owner = ownerId ? await getOrNull(ds.contactOwner(ownerType, ownerId)) : null;
  return notFoundWhen(owner === null, { ownerType, ownerId, contact: null, owner, mode: 'add', found: owner !== null });
});

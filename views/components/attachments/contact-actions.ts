import { useRevalidator } from 'react-router';
import { messageOf } from '../../../src/shared/api-error.js';
import type { ContactFormBody } from '../../../src/shared/schemas/contacts.js';
import { apiRequest } from '../../data/http.js';
import { toast } from '../ui/toast.js';
import type { Contact } from '../../../src/shared/schemas/attachments.js';

export const saveContact = (body: ContactFormBody, contactId?: number) =>
  contactId === undefined ? apiRequest<Contact>('POST', '/api/contacts', body) : apiRequest<Contact>('PUT', `/api/contacts/${contactId}`, body);

/** A failed contact write: title Error, the server's message when it sent one, else the spec's fallback. */
export function contactFailure(error: unknown, fallback: string) {
  toast({ title: 'Error', description: messageOf(error, fallback), variant: 'destructive' });
}

/**
 * Deletes a contact with its toasts; true when it was deleted. The two wordings of spec point 8 differ only by a
 * full stop: the Contacts tab and the detail page use it, the brand and media card does not.
 */
export async function deleteContactWithToast(contactId: number, style: 'sentence' | 'short'): Promise<boolean> {
  const stop = style === 'sentence' ? '.' : '';
  try {
    await apiRequest('DELETE', `/api/contacts/${contactId}`);
  } catch (error) {
    contactFailure(error, `Failed to delete contact${stop}`);
    return false;
  }
  toast({ title: `Contact deleted successfully${stop}` });
  return true;
}

/** Deletes a contact (see deleteContactWithToast) and reloads the page's data. */
export function useDeleteContact(style: 'sentence' | 'short') {
  const revalidator = useRevalidator();
  return async (contactId: number): Promise<boolean> => {
    if (!(await deleteContactWithToast(contactId, style))) return false;
    await revalidator.revalidate();
    return true;
  };
}

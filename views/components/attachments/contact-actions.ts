import { useRevalidator } from 'react-router';
import { messageOf } from '../../../src/shared/api-error.js';
import type { ContactFormBody } from '../../../src/shared/schemas/contacts.js';
import { apiRequest } from '../../data/http.js';
import { toast } from '../ui/toast.js';
import type { Contact } from './types.js';

export const saveContact = (body: ContactFormBody, contactId?: number) =>
  contactId === undefined ? apiRequest<Contact>('POST', '/api/contacts', body) : apiRequest<Contact>('PUT', `/api/contacts/${contactId}`, body);

/** A failed contact write: title Error, the server's message when it sent one, else the spec's fallback. */
export function contactFailure(error: unknown, fallback: string) {
  toast({ title: 'Error', description: messageOf(error, fallback), variant: 'destructive' });
}

/**
 * Deletes a contact and reloads the page's data. The two wordings of spec point 8 differ only by a full stop:
 * the Contacts tab and the detail page use it, the brand and media card does not.
 */
export function useDeleteContact(style: 'sentence' | 'short') {
  const revalidator = useRevalidator();
  const stop = style === 'sentence' ? '.' : '';
  return async (contactId: number): Promise<boolean> => {
    try {
      await apiRequest('DELETE', `/api/contacts/${contactId}`);
    } catch (error) {
      contactFailure(error, `Failed to delete contact${stop}`);
      return false;
    }
    toast({ title: `Contact deleted successfully${stop}` });
    await revalidator.revalidate();
    return true;
  };
}

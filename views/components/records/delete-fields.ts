// Apart from the actions: a page's delete buttons need these from its first load, its action only when a form posts.

/**
 * The form fields of a delete: on a list page they name the record, on its detail page the URL does; a contact,
 * payment or file is named by its own intent and id. Only a post that says it was confirmed deletes; the dialog
 * adds that, and without JavaScript the action first answers with the question (see ConfirmDeleteButton), whose
 * own Delete button adds it.
 */
export const deleteFields = (id: number, confirmed = false, intent = 'delete') => ({
  intent,
  id: String(id),
  ...(confirmed ? { confirmed: 'yes' } : {}),
});

/** What an unconfirmed delete hands back: which delete (its intent and id) still needs the user's yes. */
export interface DeleteConfirmation {
  confirmDelete: number;
  intent: string;
}

/** The toasts of spec point 8 for one record type, built from its noun so every type words them the same way. */
export interface RecordMessages {
  created: string;
  createFailed: string;
  updated: string;
  updateFailed: string;
  deleted: string;
  deleteFailed: string;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * `noun` is lower case as it reads mid-sentence ('media outlet'); professionals are "added" rather than
 * "created" in the spec's catalogue.
 */
export function recordMessages(noun: string, createVerb: 'create' | 'add' = 'create'): RecordMessages {
  const Noun = capitalise(noun);
  const done = createVerb === 'add' ? 'added' : 'created';
  return {
    created: `${Noun} ${done} successfully`,
    createFailed: `Failed to ${createVerb} ${noun}`,
    updated: `${Noun} updated successfully`,
    updateFailed: `Failed to update ${noun}`,
    deleted: `${Noun} deleted successfully`,
    deleteFailed: `Failed to delete ${noun}`,
  };
}

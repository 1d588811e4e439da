/** A run that finished but could not use every item (a value left empty, an item not saved) did not simply succeed. */
export const completedWithErrors = (run: { status: string; failed: number; errors: readonly unknown[] }): boolean =>
  run.status === 'succeeded' && (run.failed > 0 || run.errors.length > 0);

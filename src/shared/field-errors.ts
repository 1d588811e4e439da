/** Field name → the message shown under that field. */
export type FieldErrors = Record<string, string>;

interface Issue {
  /** A zod issue's path, or the API's dotted `issues[].path`. */
  path: string | ReadonlyArray<PropertyKey>;
  message: string;
}

/** The first message for each top-level field: what a form shows, whether the browser or the server found it. */
export function firstErrorPerField(issues: readonly Issue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = typeof issue.path === 'string' ? (issue.path.split('.')[0] ?? '') : String(issue.path[0] ?? '');
    errors[key] ??= issue.message;
  }
  return errors;
}

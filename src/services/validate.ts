import type { z } from 'zod';
import { validationFailed } from './errors.js';

/** Parses input with a shared schema; the first issue's message becomes the error message (spec texts). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  throw validationFailed(issues[0]?.message ?? 'Invalid input', issues);
}

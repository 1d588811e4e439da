import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { firstErrorPerField } from '@shared/field-errors.js';

describe('firstErrorPerField', () => {
  it('keeps the first message of each top-level field, from zod or from the API', () => {
    const result = z
      .object({ name: z.string().min(1, 'Name is required').max(2, 'Too long'), tags: z.array(z.string().min(2, 'Short tag')) })
      .safeParse({ name: '', tags: ['a', 'b'] });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstErrorPerField(result.error.issues)).toEqual({ name: 'Name is required', tags: 'Short tag' });
    expect(
      firstErrorPerField([
        { path: 'amount', message: 'Amount is required' },
        { path: 'amount', message: 'later' },
        { path: 'dates.start', message: 'Bad date' },
      ]),
    ).toEqual({
      amount: 'Amount is required',
      dates: 'Bad date',
    });
  });
});

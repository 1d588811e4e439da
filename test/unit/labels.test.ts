import { describe, expect, it } from 'vitest';
import {
  CLUB_TYPE_LABELS,
  INFLUENCER_TYPE_LABELS,
  INVOICE_STATUS_LABELS,
  labelOf,
  PROFESSION_TYPE_LABELS,
  SUBSCRIPTION_STATUS_LABELS,
  valueLabel,
} from '@shared/labels.js';
import { INVOICE_STATUSES } from '@shared/schemas/payments.js';
import { CLUB_TYPES, INFLUENCER_TYPES, PROFESSION_TYPES, SUBSCRIPTION_STATUSES } from '@shared/schemas/records.js';

describe('labels of stored values', () => {
  it('gives every enum value a label that is not the raw value', () => {
    const maps: Array<[readonly string[], Readonly<Record<string, string>>]> = [
      [PROFESSION_TYPES, PROFESSION_TYPE_LABELS],
      [SUBSCRIPTION_STATUSES, SUBSCRIPTION_STATUS_LABELS],
      [CLUB_TYPES, CLUB_TYPE_LABELS],
      [INFLUENCER_TYPES, INFLUENCER_TYPE_LABELS],
      [INVOICE_STATUSES, INVOICE_STATUS_LABELS],
    ];
    for (const [values, labels] of maps) {
      for (const value of values) {
        expect(labels[value]).toMatch(/^[A-Z]/);
        expect(labels[value]).not.toBe(value);
      }
    }
  });

  it("reads the issue's raw values as labels", () => {
    expect(valueLabel('current')).toBe('Current');
    expect(labelOf(INVOICE_STATUS_LABELS, 'paid')).toBe('Paid');
    expect(valueLabel('road')).toBe('Road');
    expect(valueLabel('half-marathon')).toBe('Half marathon');
    expect(valueLabel('10k')).toBe('10K');
    expect(labelOf(INFLUENCER_TYPE_LABELS, 'both')).toBe('Pro & Influencer');
    expect(labelOf(PROFESSION_TYPE_LABELS, 'massage-therapist')).toBe('Massage therapist');
  });

  it('reads a value no map knows as its words instead of failing', () => {
    expect(labelOf(CLUB_TYPE_LABELS, 'hill_repeats')).toBe('Hill repeats');
    expect(valueLabel('Beach run')).toBe('Beach run');
  });
});

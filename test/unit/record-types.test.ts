import { describe, expect, it } from 'vitest';
import {
  CONTACT_OWNER_TYPES,
  RECORD_TYPE_INFO,
  RECORD_TYPES,
  recordTypeOfSegment,
  SYNC_KINDS,
  syncedTypeOf,
} from '@shared/record-types.js';

describe('record-type vocabulary', () => {
  it('derives the spellings the spec and the schema fix, from one definition per type', () => {
    const spellings = RECORD_TYPES.map((type) => {
      const { table, path, apiPath, statsKey, plural, notFound } = RECORD_TYPE_INFO[type];
      return [type, table, path, apiPath, statsKey, plural, notFound];
    });
    expect(spellings).toEqual([
      ['event', 'events', '/events', '/api/events', 'events', 'Events', 'Event not found'],
      ['professional', 'professionals', '/professionals', '/api/professionals', 'professionals', 'Professionals', 'Professional not found'],
      ['runclub', 'run_clubs', '/runclubs', '/api/runclubs', 'runClubs', 'Run Clubs', 'Run Club not found'],
      ['brand', 'brands', '/brands', '/api/brands', 'brands', 'Brands', 'Brand not found'],
      ['media', 'media', '/media', '/api/media', 'media', 'Media', 'Media outlet not found'],
      ['influencer', 'influencers', '/influencers', '/api/influencers', 'influencers', 'Influencers', 'Influencer not found'],
    ]);
    expect(RECORD_TYPE_INFO.media.noun).toBe('media outlet');
    expect(RECORD_TYPE_INFO.runclub.pluralNoun).toBe('run clubs');
  });

  it('derives the contact owners, the sync kinds and the lookups', () => {
    expect(CONTACT_OWNER_TYPES).toEqual(['event', 'professional', 'runclub', 'brand', 'media']);
    expect(SYNC_KINDS).toEqual(['events', 'professionals', 'runclubs']);
    expect(syncedTypeOf('runclubs')).toBe('runclub');
    expect(recordTypeOfSegment('runclubs')).toBe('runclub');
    expect(recordTypeOfSegment('contacts')).toBeUndefined();
  });
});

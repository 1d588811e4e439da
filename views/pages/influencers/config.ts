import { type Influencer } from '@shared/schemas/records.js';
import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const influencersConfig: RecordConfig = recordConfigOf('influencer');

export const fullName = (influencer: Pick<Influencer, 'firstName' | 'lastName'>) => `${influencer.firstName} ${influencer.lastName}`.trim();

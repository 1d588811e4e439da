import { type Influencer } from '../../../src/shared/schemas/records.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordConfigOf } from '../../components/records/config-of.js';

export const influencersConfig: RecordConfig = recordConfigOf('influencer');

export const fullName = (influencer: Pick<Influencer, 'firstName' | 'lastName'>) => `${influencer.firstName} ${influencer.lastName}`.trim();

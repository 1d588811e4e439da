import { RECORD_API_PATHS, type Influencer } from '../../../src/shared/schemas/records.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordMessages } from '../../components/records/messages.js';

export const influencersConfig: RecordConfig = {
  kind: 'influencer',
  apiPath: RECORD_API_PATHS.influencer,
  listPath: '/influencers',
  noun: 'influencer',
  messages: recordMessages('influencer'),
};

export const fullName = (influencer: Pick<Influencer, 'firstName' | 'lastName'>) => `${influencer.firstName} ${influencer.lastName}`.trim();

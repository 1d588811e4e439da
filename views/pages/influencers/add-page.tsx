import { InfluencerInputSchema } from '../../../src/shared/schemas/records.js';
import { PageHeader } from '../../components/records/detail.js';
import { RecordForm } from '../../components/records/record-form.js';
import { recordFormAction } from '../../components/records/actions.js';
import { influencersConfig } from './config.js';
import { INFLUENCER_FORM } from './form.js';

export const action = recordFormAction(influencersConfig, INFLUENCER_FORM);

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/influencers" backLabel="Back to Influencers" title="Add New Influencer" />
      <RecordForm schema={InfluencerInputSchema} sections={INFLUENCER_FORM} submitLabel="Create Influencer" cancelTo="/influencers" />
    </div>
  );
}

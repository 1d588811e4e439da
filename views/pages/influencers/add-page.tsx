import { InfluencerInputSchema } from '../../../src/shared/schemas/records.js';
import { PageHeader } from '../../components/records/detail.js';
import { RecordForm } from '../../components/records/record-form.js';
import { influencersConfig } from './config.js';
import { INFLUENCER_FORM } from './form.js';

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/influencers" backLabel="Back to Influencers" title="Add New Influencer" />
      <RecordForm config={influencersConfig} schema={InfluencerInputSchema} sections={INFLUENCER_FORM} submitLabel="Create Influencer" cancelTo="/influencers" />
    </div>
  );
}

import { PageHeader } from '@views/components/records/detail.js';
import { RecordForm } from '@views/components/records/record-form.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { influencersConfig } from './config.js';
import { INFLUENCER_FORM, influencerCheck } from './form.js';

export const action = recordFormAction(influencersConfig, INFLUENCER_FORM);

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/influencers" backLabel="Back to Influencers" title="Add New Influencer" />
      <RecordForm check={influencerCheck} sections={INFLUENCER_FORM} submitLabel="Create Influencer" cancelTo="/influencers" />
    </div>
  );
}

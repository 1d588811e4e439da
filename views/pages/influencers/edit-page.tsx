import { EditRecordPage } from '@views/components/records/edit-page.js';
import { recordLoader } from '@views/components/records/loaders.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { influencersConfig } from './config.js';
import { INFLUENCER_FORM, influencerCheck } from './form.js';

export const loader = recordLoader('influencer');

export const action = recordFormAction(influencersConfig, INFLUENCER_FORM);

export function Component() {
  return (
    <EditRecordPage
      config={influencersConfig}
      check={influencerCheck}
      sections={INFLUENCER_FORM}
      title="Influencer"
      notFound="Influencer not found"
      listBackLabel="Return to Influencers"
    />
  );
}

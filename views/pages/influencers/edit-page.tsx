import { useLoaderData } from 'react-router';
import { InfluencerInputSchema, type Influencer } from '../../../src/shared/schemas/records.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { detailPath } from '../../components/records/record-config.js';
import { recordLoader, type RecordData } from '../../components/records/loaders.js';
import { RecordForm } from '../../components/records/record-form.js';
import { influencersConfig } from './config.js';
import { INFLUENCER_FORM } from './form.js';

export const loader = recordLoader<Influencer>(influencersConfig.apiPath);

export function Component() {
  const { record } = useLoaderData() as RecordData<Influencer>;
  if (!record) return <NotFoundView title="Influencer not found" message={editMissingText('influencer')} backTo="/influencers" backLabel="Return to Influencers" />;
  const back = detailPath(influencersConfig, record.id);
  return (
    <div className="page">
      <PageHeader backTo={back} backLabel="Back to Influencer" title="Edit Influencer" />
      <RecordForm config={influencersConfig} schema={InfluencerInputSchema} sections={INFLUENCER_FORM} record={record} submitLabel="Update Influencer" cancelTo={back} />
    </div>
  );
}

import { useLoaderData } from 'react-router';
import { MediaInputSchema, type Media } from '../../../src/shared/schemas/records.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { detailPath } from '../../components/records/record-config.js';
import { recordLoader, type RecordData } from '../../components/records/loaders.js';
import { RecordForm } from '../../components/records/record-form.js';
import { mediaConfig } from './config.js';
import { MEDIA_FORM } from './form.js';

export const loader = recordLoader<Media>(mediaConfig.apiPath);

export function Component() {
  const { record } = useLoaderData() as RecordData<Media>;
  if (!record) return <NotFoundView title="Media outlet not found" message={editMissingText('media outlet')} backTo="/media" backLabel="Return to Media" />;
  const back = detailPath(mediaConfig, record.id);
  return (
    <div className="page">
      <PageHeader backTo={back} backLabel="Back to Media Outlet" title="Edit Media Outlet" />
      <RecordForm config={mediaConfig} schema={MediaInputSchema} sections={MEDIA_FORM} record={record} submitLabel="Update Media Outlet" cancelTo={back} />
    </div>
  );
}

import { MediaInputSchema } from '../../../src/shared/schemas/records.js';
import { PageHeader } from '../../components/records/detail.js';
import { RecordForm } from '../../components/records/record-form.js';
import { mediaConfig } from './config.js';
import { MEDIA_FORM } from './form.js';

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/media" backLabel="Back to Media" title="Add New Media Outlet" />
      <RecordForm config={mediaConfig} schema={MediaInputSchema} sections={MEDIA_FORM} submitLabel="Create Media Outlet" cancelTo="/media" />
    </div>
  );
}

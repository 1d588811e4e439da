import { PageHeader } from '@views/components/records/detail.js';
import { RecordForm } from '@views/components/records/record-form.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { mediaConfig } from './config.js';
import { MEDIA_FORM, mediaCheck } from './form.js';

export const action = recordFormAction(mediaConfig, MEDIA_FORM);

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/media" backLabel="Back to Media" title="Add New Media Outlet" />
      <RecordForm check={mediaCheck} sections={MEDIA_FORM} submitLabel="Create Media Outlet" cancelTo="/media" />
    </div>
  );
}

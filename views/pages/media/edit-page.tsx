import { EditRecordPage } from '@views/components/records/edit-page.js';
import { recordLoader } from '@views/components/records/loaders.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { mediaConfig } from './config.js';
import { MEDIA_FORM, mediaCheck } from './form.js';

export const loader = recordLoader('media');

export const action = recordFormAction(mediaConfig, MEDIA_FORM);

export function Component() {
  return (
    <EditRecordPage
      config={mediaConfig}
      check={mediaCheck}
      sections={MEDIA_FORM}
      title="Media Outlet"
      notFound="Media outlet not found"
      listBackLabel="Return to Media"
    />
  );
}

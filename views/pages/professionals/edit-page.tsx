import { EditRecordPage } from '@views/components/records/edit-page.js';
import { recordLoader } from '@views/components/records/loaders.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { professionalsConfig } from './config.js';
import { PROFESSIONAL_FORM, professionalCheck } from './form.js';

export const loader = recordLoader('professional');

export const action = recordFormAction(professionalsConfig, PROFESSIONAL_FORM);

export function Component() {
  return (
    <EditRecordPage
      config={professionalsConfig}
      check={professionalCheck}
      sections={PROFESSIONAL_FORM}
      title="Professional"
      notFound="Professional not found"
      listBackLabel="Back to Professionals"
    />
  );
}

import { PageHeader } from '@views/components/records/detail.js';
import { RecordForm } from '@views/components/records/record-form.js';
import { Alert } from '@views/components/ui/primitives.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { professionalsConfig } from './config.js';
import { PROFESSIONAL_FORM, professionalCheck } from './form.js';

export const action = recordFormAction(professionalsConfig, PROFESSIONAL_FORM);

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/professionals" backLabel="Back to Professionals" title="Add Unpublished Professional" />
      <Alert>Professionals added here are unpublished (Draft): they are not on the content website until it syncs them.</Alert>
      <RecordForm check={professionalCheck} sections={PROFESSIONAL_FORM} submitLabel="Create Professional" cancelTo="/professionals" />
    </div>
  );
}

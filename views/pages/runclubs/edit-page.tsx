import { EditRecordPage } from '@views/components/records/edit-page.js';
import { recordLoader } from '@views/components/records/loaders.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { runclubsConfig } from './config.js';
import { RUN_CLUB_FORM, runClubCheck } from './form.js';

export const loader = recordLoader('runclub');

export const action = recordFormAction(runclubsConfig, RUN_CLUB_FORM);

export function Component() {
  return (
    <EditRecordPage
      config={runclubsConfig}
      check={runClubCheck}
      sections={RUN_CLUB_FORM}
      title="Run Club"
      notFound="Run Club not found"
      listBackLabel="Back to Run Clubs"
    />
  );
}

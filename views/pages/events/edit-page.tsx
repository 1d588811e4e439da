import { EditRecordPage } from '@views/components/records/edit-page.js';
import { recordLoader } from '@views/components/records/loaders.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { eventsConfig } from './config.js';
import { EVENT_FORM, eventCheck } from './form.js';

export const loader = recordLoader('event');

export const action = recordFormAction(eventsConfig, EVENT_FORM);

export function Component() {
  return (
    <EditRecordPage
      config={eventsConfig}
      check={eventCheck}
      sections={EVENT_FORM}
      title="Event"
      notFound="Event not found"
      listBackLabel="Back to Events"
    />
  );
}

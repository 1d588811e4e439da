import { useLoaderData } from 'react-router';
import { EventInputSchema, type Event } from '../../../src/shared/schemas/records.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { detailPath } from '../../components/records/record-config.js';
import { recordLoader, type RecordData } from '../../components/records/loaders.js';
import { RecordForm } from '../../components/records/record-form.js';
import { eventsConfig } from './config.js';
import { EVENT_FORM } from './form.js';

export const loader = recordLoader<Event>(eventsConfig.apiPath);

export function Component() {
  const { record } = useLoaderData() as RecordData<Event>;
  if (!record) return <NotFoundView title="Event not found" message={editMissingText('event')} backTo="/events" backLabel="Back to Events" />;
  const back = detailPath(eventsConfig, record.id);
  return (
    <div className="page">
      <PageHeader backTo={back} backLabel="Back to Event" title="Edit Event" />
      <RecordForm config={eventsConfig} schema={EventInputSchema} sections={EVENT_FORM} record={record} submitLabel="Update Event" cancelTo={back} />
    </div>
  );
}

import { useLoaderData } from 'react-router';
import { RunClubInputSchema, type RunClub } from '../../../src/shared/schemas/records.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { detailPath } from '../../components/records/record-config.js';
import { recordLoader, type RecordData } from '../../components/records/loaders.js';
import { RecordForm } from '../../components/records/record-form.js';
import { runclubsConfig } from './config.js';
import { RUN_CLUB_FORM } from './form.js';

export const loader = recordLoader<RunClub>(runclubsConfig.apiPath);

export function Component() {
  const { record } = useLoaderData() as RecordData<RunClub>;
  if (!record) return <NotFoundView title="Run Club not found" message={editMissingText('run club')} backTo="/runclubs" backLabel="Back to Run Clubs" />;
  const back = detailPath(runclubsConfig, record.id);
  return (
    <div className="page">
      <PageHeader backTo={back} backLabel="Back to Run Club" title="Edit Run Club" />
      <RecordForm config={runclubsConfig} schema={RunClubInputSchema} sections={RUN_CLUB_FORM} record={record} submitLabel="Update Run Club" cancelTo={back} />
    </div>
  );
}

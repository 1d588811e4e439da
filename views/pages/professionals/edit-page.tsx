import { useLoaderData } from 'react-router';
import { ProfessionalInputSchema, type Professional } from '../../../src/shared/schemas/records.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { detailPath } from '../../components/records/record-config.js';
import { recordLoader, type RecordData } from '../../components/records/loaders.js';
import { RecordForm } from '../../components/records/record-form.js';
import { professionalsConfig } from './config.js';
import { PROFESSIONAL_FORM } from './form.js';

export const loader = recordLoader<Professional>(professionalsConfig.apiPath);

export function Component() {
  const { record } = useLoaderData() as RecordData<Professional>;
  if (!record) return <NotFoundView title="Professional not found" message={editMissingText('professional')} backTo="/professionals" backLabel="Back to Professionals" />;
  const back = detailPath(professionalsConfig, record.id);
  return (
    <div className="page">
      <PageHeader backTo={back} backLabel="Back to Professional" title="Edit Professional" />
      <RecordForm config={professionalsConfig} schema={ProfessionalInputSchema} sections={PROFESSIONAL_FORM} record={record} submitLabel="Update Professional" cancelTo={back} />
    </div>
  );
}

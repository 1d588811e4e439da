import { useLoaderData } from 'react-router';
import { BrandInputSchema, type Brand } from '../../../src/shared/schemas/records.js';
import { editMissingText, NotFoundView, PageHeader } from '../../components/records/detail.js';
import { detailPath } from '../../components/records/record-config.js';
import { recordLoader, type RecordData } from '../../components/records/loaders.js';
import { RecordForm } from '../../components/records/record-form.js';
import { brandsConfig } from './config.js';
import { BRAND_FORM } from './form.js';

export const loader = recordLoader<Brand>(brandsConfig.apiPath);

export function Component() {
  const { record } = useLoaderData() as RecordData<Brand>;
  if (!record) return <NotFoundView title="Brand not found" message={editMissingText('brand')} backTo="/brands" backLabel="Return to Brands" />;
  const back = detailPath(brandsConfig, record.id);
  return (
    <div className="page">
      <PageHeader backTo={back} backLabel="Back to Brand" title="Edit Brand" />
      <RecordForm config={brandsConfig} schema={BrandInputSchema} sections={BRAND_FORM} record={record} submitLabel="Update Brand" cancelTo={back} />
    </div>
  );
}

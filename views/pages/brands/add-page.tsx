import { BrandInputSchema } from '../../../src/shared/schemas/records.js';
import { PageHeader } from '../../components/records/detail.js';
import { RecordForm } from '../../components/records/record-form.js';
import { brandsConfig } from './config.js';
import { BRAND_FORM } from './form.js';

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/brands" backLabel="Back to Brands" title="Add New Brand" />
      <RecordForm config={brandsConfig} schema={BrandInputSchema} sections={BRAND_FORM} submitLabel="Create Brand" cancelTo="/brands" />
    </div>
  );
}

import { PageHeader } from '@views/components/records/detail.js';
import { RecordForm } from '@views/components/records/record-form.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { brandsConfig } from './config.js';
import { BRAND_FORM, brandCheck } from './form.js';

export const action = recordFormAction(brandsConfig, BRAND_FORM);

export function Component() {
  return (
    <div className="page">
      <PageHeader backTo="/brands" backLabel="Back to Brands" title="Add New Brand" />
      <RecordForm check={brandCheck} sections={BRAND_FORM} submitLabel="Create Brand" cancelTo="/brands" />
    </div>
  );
}

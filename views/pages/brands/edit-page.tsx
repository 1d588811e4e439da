import { EditRecordPage } from '@views/components/records/edit-page.js';
import { recordLoader } from '@views/components/records/loaders.js';
import { recordFormAction } from '@views/components/records/actions.js';
import { brandsConfig } from './config.js';
import { BRAND_FORM, brandCheck } from './form.js';

export const loader = recordLoader('brand');

export const action = recordFormAction(brandsConfig, BRAND_FORM);

export function Component() {
  return (
    <EditRecordPage
      config={brandsConfig}
      check={brandCheck}
      sections={BRAND_FORM}
      title="Brand"
      notFound="Brand not found"
      listBackLabel="Return to Brands"
    />
  );
}

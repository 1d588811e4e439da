import { INFLUENCER } from '@shared/records/influencer.js';
import { formOf } from '@views/components/records/definition-form.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of InfluencerInputSchema (PUT replaces all of them), from the influencer's definition. */
export const INFLUENCER_FORM: FormSection[] = formOf(INFLUENCER);

/** The influencer form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const influencerCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.InfluencerInputSchema));

import { MEDIA } from '@shared/records/media.js';
import { formOf } from '@views/components/records/definition-form.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of MediaInputSchema (PUT replaces all of them), from the media outlet's definition. */
export const MEDIA_FORM: FormSection[] = formOf(MEDIA);

/** The media outlet form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const mediaCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.MediaInputSchema));

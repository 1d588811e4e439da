import { EVENT } from '@shared/records/event.js';
import { formOf } from '@views/components/records/definition-form.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of EventInputSchema (PUT replaces all of them), from the event's definition. */
export const EVENT_FORM: FormSection[] = formOf(EVENT);

/** The event form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const eventCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.EventInputSchema));

import { useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { HttpError, type ApiErrorBody } from '../../../src/shared/api-error.js';
import { apiRequest } from '../../data/http.js';
import { toast } from '../ui/toast.js';
import { Button, Card, FieldError, Input, Label, Textarea } from '../ui/primitives.js';
import { firstErrorPerField, type FieldErrors } from '../../../src/shared/field-errors.js';
import { failureToast } from './delete-dialog.js';
import { detailPath, type RecordConfig } from './record-config.js';
import { allFields, initialText, readForm, type FieldSpec, type FormSection } from './form-fields.js';


/** The field issues of a 400 answer, so a rule only the server knows still lands next to its field. */
function serverIssues(error: unknown): ApiErrorBody['issues'] {
  if (!(error instanceof HttpError) || error.status !== 400) return undefined;
  try {
    return (JSON.parse(error.body) as Partial<ApiErrorBody>).issues;
  } catch {
    return undefined;
  }
}

const fieldId = (name: string) => `field-${name}`;

const noSubscription = () => () => {};
/**
 * False in the server's HTML and during hydration, true once React runs the page. Before that a click would
 * submit the form natively (a GET with the fields in the URL), so the submit button waits for the script.
 */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/** A field's hint and its error, under the control; their ids are what the control's aria-describedby names. */
function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="muted records-hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}

function Field({ field, value, error }: { field: FieldSpec; value: unknown; error?: string }) {
  const id = fieldId(field.name);
  const hintId = field.hint || field.kind === 'list' ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field.name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  } as const;
  const hint = field.hint ?? (field.kind === 'list' ? 'Separate entries with commas' : undefined);

  if (field.kind === 'checkbox') {
    return (
      <div className="field records-field-checkbox">
        <div className="checkbox-row">
          <input type="checkbox" {...common} defaultChecked={value === true} />
          <Label htmlFor={id}>{field.label}</Label>
        </div>
        <FieldNotes id={id} hint={hint} error={error} />
      </div>
    );
  }

  if (field.kind === 'checkboxes') {
    const checked = new Set(Array.isArray(value) ? value.map(String) : []);
    return (
      <fieldset className="field records-fieldset" aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
        <legend className="label">{field.label}</legend>
        <div className="records-checkbox-group">
          {field.options.map((option) => (
            <label key={option.value} className="checkbox-row">
              <input type="checkbox" name={field.name} value={option.value} defaultChecked={checked.has(option.value)} />
              {option.label}
            </label>
          ))}
        </div>
        <FieldNotes id={id} hint={hint} error={error} />
      </fieldset>
    );
  }

  let control;
  if (field.kind === 'textarea') {
    control = <Textarea {...common} rows={4} defaultValue={initialText(value)} placeholder={field.placeholder} />;
  } else if (field.kind === 'select') {
    control = (
      <select {...common} className="input" defaultValue={initialText(value ?? field.defaultValue)}>
        {field.defaultValue === undefined && <option value="">Not set</option>}
        {field.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else {
    const type = field.kind === 'list' || field.kind === 'number' ? 'text' : field.kind;
    const inputMode = field.kind === 'number' ? (field.decimal ? 'decimal' : 'numeric') : undefined;
    control = <Input {...common} type={type} inputMode={inputMode} defaultValue={initialText(value)} placeholder={field.placeholder} />;
  }
  return (
    <div className="field">
      <Label htmlFor={id} required={field.required}>
        {field.label}
      </Label>
      {control}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

export interface RecordFormProps {
  config: RecordConfig;
  /** The shared zod schema the API parses the same body with. */
  schema: z.ZodType;
  sections: readonly FormSection[];
  /** The record being edited; absent when creating. */
  record?: ({ id: number } & object) | null;
  /** 'Create Brand' / 'Update Brand'; while pending the button reads 'Creating...' / 'Updating...'. */
  submitLabel: string;
  cancelTo: string;
}

/**
 * The add and edit form of every record type. It validates with the shared schema before sending, shows each
 * field's message under it, sends the whole form (PUT replaces every form field) and goes to the detail page.
 */
export function RecordForm({ config, schema, sections, record, submitLabel, cancelTo }: RecordFormProps) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const hydrated = useHydrated();
  const editing = Boolean(record);
  const fields = allFields(sections);
  const values = (record ?? {}) as Record<string, unknown>;

  function showErrors(next: FieldErrors) {
    setErrors(next);
    const first = fields.find((field) => next[field.name]);
    if (first) {
      const element = formRef.current?.querySelector<HTMLElement>(`[name="${first.name}"]`);
      element?.focus();
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = readForm(new FormData(event.currentTarget), fields);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      showErrors(firstErrorPerField(parsed.error.issues));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const saved = editing
        ? await apiRequest<{ id: number }>('PUT', `${config.apiPath}/${record!.id}`, body)
        : await apiRequest<{ id: number }>('POST', config.apiPath, body);
      toast({ title: editing ? config.messages.updated : config.messages.created });
      await navigate(detailPath(config, saved.id));
    } catch (error) {
      setPending(false);
      const issues = serverIssues(error);
      if (issues?.length) showErrors(firstErrorPerField(issues));
      failureToast(editing ? config.messages.updateFailed : config.messages.createFailed, error);
    }
  }

  return (
    <form ref={formRef} className="records-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {sections.map((section, index) => (
        <Card key={section.title ?? index} className="records-form-section">
          {section.title && <h2 className="card-title records-form-title">{section.title}</h2>}
          <div className="form-grid">
            {section.fields.map((field) => (
              <div key={field.name} className={field.kind === 'textarea' || field.kind === 'checkboxes' ? 'records-field-wide' : undefined}>
                <Field field={field} value={values[field.name]} error={errors[field.name]} />
              </div>
            ))}
          </div>
        </Card>
      ))}
      <div className="form-actions">
        <Button type="submit" disabled={pending || !hydrated}>
          {pending ? (editing ? 'Updating...' : 'Creating...') : submitLabel}
        </Button>
        <Link to={cancelTo} className="btn btn-outline">
          Cancel
        </Link>
      </div>
    </form>
  );
}

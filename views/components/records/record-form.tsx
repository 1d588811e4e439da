import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type ReactNode } from 'react';
import { Form, Link, useActionData, useLocation, useNavigation } from 'react-router';
import { Alert, Button, Card, FieldError, Input, Label, Textarea } from '../ui/primitives.js';
import type { FieldErrors } from '@shared/field-errors.js';
import { valueLabel } from '@shared/labels.js';
import { checkSubmit, usePreloadedCheck, type FormCheck } from '@views/hooks/form-check.js';
import type { WriteFailure } from './actions.js';
import { allFields, initialText, readForm, type FieldSpec, type FormSection } from './form-fields.js';

const fieldId = (name: string) => `field-${name}`;

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
    const known = new Set(field.options.map((option) => option.value));
    const stored = field.keepStored
      ? [...checked].filter((item) => !known.has(item)).map((item) => ({ value: item, label: valueLabel(item) }))
      : [];
    return (
      <fieldset className="field records-fieldset" aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
        <legend className="label">{field.label}</legend>
        <div className="records-checkbox-group">
          {[...field.options, ...stored].map((option) => (
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

/**
 * A refused write the server ran (the page was posted without JavaScript): no toast could show it, so the form
 * does, with the spec's text and the server's own message. In the browser the toast already said it.
 */
export function FailureAlert({ failure }: { failure: WriteFailure | undefined }) {
  if (!failure || failure.toasted || failure.conflict) return null;
  return (
    <Alert variant="destructive" title={failure.title}>
      {failure.message && failure.message !== failure.title ? failure.message : null}
    </Alert>
  );
}

/**
 * Someone else saved first (issue 13): the server's message (who changed it and when) and the two ways on. Reload
 * drops what was typed and shows the other change; Save anyway overwrites it deliberately.
 */
export function EditConflictAlert({
  title,
  message,
  reload,
  saveAnyway,
}: {
  title: string;
  message: string;
  reload: ReactNode;
  saveAnyway: ReactNode;
}) {
  return (
    <Alert variant="destructive" title={title}>
      <p>{message}</p>
      <div className="form-actions">
        {reload}
        {saveAnyway}
      </div>
    </Alert>
  );
}

export interface RecordFormProps {
  /** The check with the shared schema the API parses the same body with (loaded as the form shows). */
  check: FormCheck;
  sections: readonly FormSection[];
  /** The record being edited (its updatedAt is the version the save carries); absent when creating. */
  record?: ({ id: number; updatedAt: string } & object) | null;
  /** 'Create Brand' / 'Update Brand'; while pending the button reads 'Creating...' / 'Updating...'. */
  submitLabel: string;
  cancelTo: string;
}

/**
 * The add and edit form of every record type. It posts to its own page, whose route action saves and goes to the
 * detail page (views/components/records/actions.ts), so it works before hydration and without JavaScript. Once
 * hydrated it first validates with the shared schema, and an invalid form is not sent at all; the messages of
 * either check show under their fields.
 */
export function RecordForm({ check, sections, record, submitLabel, cancelTo }: RecordFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  usePreloadedCheck(check);
  const navigation = useNavigation();
  const failure = useActionData<WriteFailure>();
  // The browser's own check; null once the form passed it, so the answer to the last post shows instead.
  const [checked, setChecked] = useState<FieldErrors | null>(null);
  const location = useLocation();
  const editing = Boolean(record);
  const fields = allFields(sections);
  const conflict = failure?.conflict;
  // After a conflict the form keeps what was typed (a page posted without JavaScript renders it afresh).
  const values = (conflict?.values ?? record ?? {}) as Record<string, unknown>;
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  const errors = checked ?? (pending ? {} : (failure?.errors ?? {}));
  const [duplicateNotice, setDuplicateNotice] = useState<ReactNode>(null);
  // A new record's name is checked against the stored ones when its field is left (loaded then: no page ships it).
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const field = (event.target as { name?: unknown }).name;
    if (!editing && typeof field === 'string')
      void import('./duplicate-notice.js').then((notice) =>
        notice.checkDuplicates(form, field, location.pathname.split('/')[1] ?? '', setDuplicateNotice),
      );
  };

  const focusFirstError = (next: FieldErrors) => {
    const first = fields.find((field) => next[field.name]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first.name}"]`)?.focus();
  };
  useEffect(() => {
    if (failure) focusFirstError(failure.errors);
    // Only a new answer moves the focus, not a re-render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failure]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const next = checkSubmit(event, check, (form) => readForm(form, fields));
    setChecked(next);
    if (next) focusFirstError(next);
  }

  return (
    <Form ref={formRef} method="post" className="records-form" noValidate onSubmit={onSubmit} onBlur={onBlur}>
      <FailureAlert failure={pending ? undefined : failure} />
      {duplicateNotice}
      {record && <input type="hidden" name="version" value={conflict?.version ?? record.updatedAt} />}
      {conflict && !pending && (
        <EditConflictAlert
          title={failure.title}
          message={conflict.message}
          reload={
            <Link to={location.pathname + location.search} className="btn btn-outline">
              Reload
            </Link>
          }
          saveAnyway={<Button type="submit">Save anyway</Button>}
        />
      )}
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
        <Button type="submit" disabled={pending}>
          {pending ? (editing ? 'Updating...' : 'Creating...') : submitLabel}
        </Button>
        <Link to={cancelTo} className="btn btn-outline">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

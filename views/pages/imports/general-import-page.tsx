import { useId, useState, type FormEvent } from 'react';
import { HttpError, messageOf } from '@shared/api-error.js';
// Types only: the module's zod schemas stay out of this page's code.
import type { ColumnMapping, GeneralImportType, ImportKey, ImportMode, ImportPreview } from '@shared/imports/general.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import type { JobView } from '@shared/schemas/jobs.js';
import { PageHeader } from '@views/components/records/detail.js';
import { Alert, Badge, Button, Card, CardHeader, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { cancelJob, JobProgressBar, useJob } from '../jobs/job-progress.js';

/**
 * /imports/new, the general import (issue 34 point 1; docs/decisions/0107-general-import.md), beside the spec's two
 * import screens: 1. the list and a CSV or XLSX file, 2. each column mapped to a field (the saved mapping of these
 * headers, else the suggested one) with the mode and key, 3. a dry run showing each row's problem, 4. the import
 * itself as a job with live progress and its report. The browser keeps the file and sends it again at each step.
 */

type Step = 'file' | 'mapping' | 'preview' | 'import';
type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped' | 'failed';
type ReportRow = [row: number, outcome: Outcome, message: string];
interface RunResult {
  dryRun: boolean;
  counts: Record<Outcome, number>;
  report: ReportRow[];
}

const IMPORT_TYPES: readonly GeneralImportType[] = [...RECORD_TYPES, 'contact'];
const TYPE_LABELS = (type: GeneralImportType) => (type === 'contact' ? 'Contacts' : RECORD_TYPE_INFO[type].plural);
const OWNER_LABELS = (type: (typeof CONTACT_OWNER_TYPES)[number]) => RECORD_TYPE_INFO[type].plural;

const MODE_LABELS: Record<ImportMode, string> = {
  create: 'Create only',
  update: 'Update only',
  upsert: 'Create or update',
};
const KEY_LABELS: Record<ImportKey, string> = {
  id: 'ID (the export’s ID column)',
  wordpressId: 'WordPress id',
  name: 'Name',
  email: 'Email',
};
const OUTCOME_LABELS: Record<Outcome, [wouldBe: string, was: string]> = {
  created: ['To create', 'Created'],
  updated: ['To update', 'Updated'],
  unchanged: ['Unchanged', 'Unchanged'],
  skipped: ['Skipped', 'Skipped'],
  failed: ['With errors', 'Failed'],
};
const OUTCOMES = Object.keys(OUTCOME_LABELS) as Outcome[];
const SHOWN_PROBLEMS = 200;
const STEPS: Array<[Step, string]> = [
  ['file', 'File'],
  ['mapping', 'Mapping'],
  ['preview', 'Preview'],
  ['import', 'Import'],
];

/** A multipart POST; a non-2xx answer is an HttpError like apiRequest's. */
async function postForm<T>(url: string, form: FormData): Promise<T> {
  const response = await fetch(url, { method: 'POST', credentials: 'include', headers: { Accept: 'application/json' }, body: form });
  if (!response.ok) throw new HttpError(response.status, await response.text(), response.statusText);
  return (await response.json()) as T;
}

const resultOf = (job: JobView | null): RunResult | null =>
  job?.state === 'succeeded' && job.result ? (job.result as unknown as RunResult) : null;

function Counts({ result, testId }: { result: RunResult; testId: string }) {
  const column = result.dryRun ? 0 : 1;
  return (
    <div className="imports-tiles" data-testid={testId}>
      {OUTCOMES.map((outcome) => (
        <div
          key={outcome}
          className={`imports-tile${outcome === 'failed' ? ' imports-tile-errors' : ''}${result.counts[outcome] === 0 ? ' imports-tile-zero' : ''}`}
          data-testid={`${testId}-${outcome}`}
        >
          <span className="imports-tile-value">{result.counts[outcome].toLocaleString('en')}</span>
          <span className="imports-tile-label">{OUTCOME_LABELS[outcome][column]}</span>
        </div>
      ))}
    </div>
  );
}

/**
 * The rows that were not applied as asked (failed or skipped), and those a preview would create that look like a
 * stored record (a created row with a message: "Possible duplicate of …"), with the reason.
 */
function Problems({ result }: { result: RunResult }) {
  const rows = result.report.filter(
    ([, outcome, message]) => outcome === 'failed' || outcome === 'skipped' || (outcome === 'created' && message),
  );
  if (rows.length === 0) return <p className="muted">Every row can be applied.</p>;
  return (
    <div className="imports-table-wrap">
      <table className="imports-table" data-testid="general-import-problems">
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Outcome</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, SHOWN_PROBLEMS).map(([row, outcome, message]) => (
            <tr key={row}>
              <td>{row}</td>
              <td>
                <Badge tone={outcome === 'failed' ? 'danger' : outcome === 'created' ? 'warning' : 'muted'}>{outcome}</Badge>
              </td>
              <td>{message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > SHOWN_PROBLEMS && (
        <p className="muted">
          First {SHOWN_PROBLEMS} of {rows.length.toLocaleString('en')} rows shown; the report lists them all.
        </p>
      )}
    </div>
  );
}

export function Component() {
  const [step, setStep] = useState<Step>('file');
  const [type, setType] = useState<GeneralImportType>('event');
  const [ownerType, setOwnerType] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [mode, setMode] = useState<ImportMode>('upsert');
  const [key, setKey] = useState<ImportKey | ''>('');
  const [dryJobId, setDryJobId] = useState<number | null>(null);
  const [realJobId, setRealJobId] = useState<number | null>(null);
  const ids = { type: useId(), owner: useId(), file: useId(), mode: useId(), key: useId() };

  const dryJob = useJob(dryJobId, () => undefined, true);
  const realJob = useJob(
    realJobId,
    (finished) => {
      if (finished.state === 'succeeded') toast({ title: 'Import finished' });
      else if (finished.state === 'failed')
        toast({ title: 'Import failed', description: finished.error?.message ?? 'The import failed', variant: 'destructive' });
    },
    true,
  );
  const dryResult = resultOf(dryJob);
  const realResult = resultOf(realJob);
  const running = (job: JobView | null, id: number | null) =>
    id !== null && (job === null || job.state === 'queued' || job.state === 'running');

  function fail(title: string, error: unknown, fallback: string) {
    const message = messageOf(error, fallback);
    setProblem(message);
    toast({ title, description: message, variant: 'destructive' });
  }

  async function readFile(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    const form = new FormData();
    form.set('type', type);
    if (type === 'contact' && ownerType) form.set('ownerType', ownerType);
    form.set('file', file);
    setBusy(true);
    setProblem(null);
    try {
      const answer = await postForm<ImportPreview>('/api/imports/preview', form);
      setPreview(answer);
      setMapping(answer.saved ?? answer.suggested);
      setKey('');
      setStep('mapping');
    } catch (error) {
      fail('The file cannot be imported', error, 'The file could not be read');
    } finally {
      setBusy(false);
    }
  }

  async function start(dryRun: boolean) {
    if (!file) return;
    const form = new FormData();
    form.set('type', type);
    form.set('mapping', JSON.stringify(mapping));
    form.set('mode', mode);
    if (key) form.set('key', key);
    if (type === 'contact' && ownerType) form.set('ownerType', ownerType);
    if (dryRun) form.set('dryRun', 'true');
    form.set('file', file);
    setBusy(true);
    setProblem(null);
    try {
      const job = await postForm<JobView>('/api/imports', form);
      if (dryRun) {
        setDryJobId(job.id);
        setStep('preview');
      } else {
        setRealJobId(job.id);
        setStep('import');
      }
    } catch (error) {
      fail(dryRun ? 'The preview could not start' : 'Import failed', error, 'The import could not start');
    } finally {
      setBusy(false);
    }
  }

  function restart() {
    setStep('file');
    setFile(null);
    setPreview(null);
    setMapping({});
    setDryJobId(null);
    setRealJobId(null);
    setProblem(null);
  }

  const taken = new Map<string, string>();
  for (const [column, field] of Object.entries(mapping)) if (field) taken.set(field, column);
  const missing = preview?.fields.filter((field) => field.required && !taken.has(field.name) && mode !== 'update') ?? [];

  return (
    <div className="page imports-page">
      <PageHeader backTo="/jobs" backLabel="Back to Jobs" title="Import a list" />
      <p className="imports-columns" data-testid="general-import-steps">
        {STEPS.map(([name, label], index) => (
          <Badge key={name} tone={step === name ? 'info' : 'muted'} aria-current={step === name ? 'step' : undefined}>
            {index + 1}. {label}
          </Badge>
        ))}
      </p>
      {problem && (
        <Alert variant="destructive" title="Something needs fixing">
          <span data-testid="general-import-problem">{problem}</span>
        </Alert>
      )}

      {step === 'file' && (
        <Card>
          <CardHeader title="Choose the list and a file" />
          <form onSubmit={readFile} className="form-grid">
            <div className="field">
              <Label htmlFor={ids.type}>List</Label>
              <select
                id={ids.type}
                className="input"
                value={type}
                onChange={(event) => setType(event.target.value as GeneralImportType)}
                data-testid="general-import-type"
              >
                {IMPORT_TYPES.map((option) => (
                  <option key={option} value={option}>
                    {TYPE_LABELS(option)}
                  </option>
                ))}
              </select>
            </div>
            {type === 'contact' && (
              <div className="field">
                <Label htmlFor={ids.owner}>Owner type</Label>
                <select id={ids.owner} className="input" value={ownerType} onChange={(event) => setOwnerType(event.target.value)}>
                  <option value="">From the file’s Owner Type column</option>
                  {CONTACT_OWNER_TYPES.map((option) => (
                    <option key={option} value={option}>
                      {OWNER_LABELS(option)}
                    </option>
                  ))}
                </select>
                <p className="muted">Map the column holding each contact’s owner (by id or name) to Owner in the next step.</p>
              </div>
            )}
            <div className="field">
              <Label htmlFor={ids.file} required>
                CSV or XLSX file
              </Label>
              <input
                id={ids.file}
                type="file"
                className="input"
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
                data-testid="general-import-file"
              />
              <p className="muted">
                CSV in any common encoding, separated by commas, semicolons or tabs; of an XLSX file, its first sheet.
              </p>
            </div>
            <div className="form-actions">
              <Button type="submit" disabled={!file || busy}>
                {busy ? 'Reading...' : 'Next: map columns'}
              </Button>
            </div>
          </form>
        </Card>
      )}

      {step === 'mapping' && preview && (
        <Card>
          <CardHeader title={`Map the columns of ${file?.name ?? 'the file'}`} />
          <p className="muted" data-testid="general-import-summary">
            {preview.rowCount.toLocaleString('en')} {preview.rowCount === 1 ? 'row' : 'rows'} of {TYPE_LABELS(type).toLowerCase()}.{' '}
            {preview.saved
              ? 'The mapping saved from the last import of these columns is filled in.'
              : 'Columns are matched to fields by their names; unmatched columns are ignored.'}
          </p>
          {preview.saved && (
            <p>
              <Badge tone="success">
                <span data-testid="general-import-saved">Saved mapping</span>
              </Badge>
            </p>
          )}
          <div className="imports-table-wrap">
            <table className="imports-table" data-testid="general-import-mapping">
              <thead>
                <tr>
                  <th scope="col">Column</th>
                  <th scope="col">Sample values</th>
                  <th scope="col">Field</th>
                </tr>
              </thead>
              <tbody>
                {preview.header.map((column, index) => (
                  <tr key={`${index}-${column}`}>
                    <th scope="row">{column || '(blank)'}</th>
                    <td className="muted">{(preview.samples[column] ?? []).join(' · ')}</td>
                    <td>
                      <select
                        className="input"
                        aria-label={`Field for ${column}`}
                        value={mapping[column] ?? ''}
                        onChange={(event) => setMapping({ ...mapping, [column]: event.target.value || null })}
                      >
                        <option value="">Ignore</option>
                        {preview.fields.map((field) => (
                          <option key={field.name} value={field.name} disabled={taken.has(field.name) && taken.get(field.name) !== column}>
                            {field.label}
                            {field.required ? ' *' : ''}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="form-grid">
            <div className="field">
              <Label htmlFor={ids.mode}>Mode</Label>
              <select id={ids.mode} className="input" value={mode} onChange={(event) => setMode(event.target.value as ImportMode)}>
                {(Object.keys(MODE_LABELS) as ImportMode[]).map((option) => (
                  <option key={option} value={option}>
                    {MODE_LABELS[option]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <Label htmlFor={ids.key}>Match rows to records by</Label>
              <select id={ids.key} className="input" value={key} onChange={(event) => setKey(event.target.value as ImportKey | '')}>
                <option value="">Automatic</option>
                {preview.keys.map((option) => (
                  <option key={option} value={option}>
                    {KEY_LABELS[option]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p className="muted">
            Create only skips rows that match a record; update only skips rows that match none. Automatic matching uses the ID column when
            it is mapped, else {type === 'contact' ? 'the email' : 'the name'}.
          </p>
          {missing.length > 0 && (
            <p className="muted" data-testid="general-import-missing">
              Not mapped, needed for new records: {missing.map((field) => field.label).join(', ')}.
            </p>
          )}
          <div className="form-actions">
            <Button variant="outline" onClick={restart} disabled={busy}>
              Choose another file
            </Button>
            <Button onClick={() => void start(true)} disabled={busy}>
              {busy ? 'Checking...' : 'Next: preview'}
            </Button>
          </div>
        </Card>
      )}

      {step === 'preview' && (
        <Card>
          <CardHeader title="Preview (nothing is written yet)" />
          {dryJob && running(dryJob, dryJobId) && <JobProgressBar job={dryJob} unit="rows" />}
          {dryJob?.state === 'failed' && (
            <Alert variant="destructive" title="The preview failed">
              {dryJob.error?.message ?? 'The preview failed'}
            </Alert>
          )}
          {dryResult && (
            <section aria-label="Preview result" data-testid="general-import-preview">
              <Counts result={dryResult} testId="general-import-dry-counts" />
              <Problems result={dryResult} />
            </section>
          )}
          <div className="form-actions">
            <Button variant="outline" onClick={() => setStep('mapping')} disabled={busy}>
              Back to mapping
            </Button>
            <Button onClick={() => void start(false)} disabled={busy || !dryResult}>
              {busy ? 'Starting...' : 'Import'}
            </Button>
          </div>
        </Card>
      )}

      {step === 'import' && (
        <Card>
          <CardHeader title="Import" />
          {realJob && realJob.state !== 'failed' && (
            <JobProgressBar
              job={realJob}
              unit="rows"
              onCancel={running(realJob, realJobId) ? () => void cancelJob(realJobId, 'the import') : undefined}
            />
          )}
          {realJob?.state === 'failed' && (
            <Alert variant="destructive" title="Import failed">
              {realJob.error?.message ?? 'The import failed'}
            </Alert>
          )}
          {realResult && (
            <section aria-label="Import result" data-testid="general-import-result">
              <Counts result={realResult} testId="general-import-counts" />
              <Problems result={realResult} />
              <p>
                <a href={`/api/imports/${realJobId}/report.csv`} download data-testid="general-import-report">
                  Download the report (CSV)
                </a>
              </p>
            </section>
          )}
          <div className="form-actions">
            <Button variant="outline" onClick={restart} disabled={running(realJob, realJobId)}>
              Import another file
            </Button>
          </div>
        </Card>
      )}
    </div>
  );
}

import { useDeferredValue, useId, useMemo, useState, type ChangeEvent, type DragEvent } from 'react';
import { headerKey, IMPORT_COLUMNS, IMPORT_MESSAGES, IMPORT_SAMPLES, type ImportKind } from '@shared/imports/rules.js';
import { messageOf } from '@shared/api-error.js';
import { CsvTextError, decodeCsvBytes, ENCODING_LABELS, type CsvEncoding, type Separator } from '@shared/csv-text.js';
import { PageHeader } from '@views/components/records/detail.js';
import { Alert, Badge, Button, Card, CardHeader, Label, Textarea } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { apiRequest } from '@views/data/http.js';
import { useIsAdmin } from '@views/hooks/use-session.js';
import { cancelJob, JobProgressBar, useJob, useRememberedJob } from '../jobs/job-progress.js';
import { describeImport, ImportResults, importedNothing, nothingImportedText } from './import-results.js';
import type { ParsedCsv } from './parse-csv.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';
import type { BrandsImportResult, EventsImportResult } from '@shared/imports/results.js';

type Result = EventsImportResult | BrandsImportResult;

const loadCsvParser = () => import('./parse-csv.js');

interface ScreenConfig {
  title: string;
  backTo: string;
  backLabel: string;
  rows: number;
  clearLabel: 'Reset' | 'Clear';
  failureFallback: string;
  instructions: string[];
}

const PREVIEW_ROWS = 5;

const SCREENS: Record<ImportKind, ScreenConfig> = {
  events: {
    title: 'Bulk Import Events',
    backTo: '/events',
    backLabel: 'Back to Events',
    rows: 12,
    clearLabel: 'Reset',
    failureFallback: 'Failed to import data',
    instructions: [
      'Paste CSV text into the CSV Data box, or choose or drop a .csv file there. The first line is the header.',
      'Required columns: event_id (the event\u2019s WordPress id) and website, plus an email column named Email or Emails.',
      'Files may be UTF-8, UTF-16 (with a BOM) or Windows-1252 (Excel\u2019s plain CSV), separated by commas, semicolons or tabs.',
      'Each row sets the event\u2019s website (a blank cell leaves it as it is) and adds its addresses as contacts. Several addresses may share a cell, separated by commas, semicolons or spaces.',
      'Optional First Name and Last Name (or Name) columns name the first address of a row; otherwise names come from the address (jane.doe@… becomes Jane Doe).',
      'Rows without an event_id are left out. Addresses the event already has are skipped, so importing a file twice adds nothing.',
    ],
  },
  brands: {
    title: 'Bulk Import Brands',
    backTo: '/brands',
    backLabel: 'Back to Brands',
    rows: 8,
    clearLabel: 'Clear',
    failureFallback: 'Unknown error occurred',
    instructions: [
      'Paste CSV text into the CSV Data box, or choose or drop a .csv file there. The first line is the header.',
      'Required columns: Brand, First Name, Last Name and Email. Optional: Current Job (the contact\u2019s job title).',
      'Put quotes around cells that contain commas, e.g. "Fleet Feet, Inc.".',
      'Files may be UTF-8, UTF-16 (with a BOM) or Windows-1252 (Excel\u2019s plain CSV), separated by commas, semicolons or tabs.',
      'A brand is matched by name regardless of case and spaces, and created when it does not exist yet. Rows without Brand or Email are left out.',
      'Addresses the brand already has are skipped, so importing a file twice adds nothing.',
    ],
  },
};

/** The toast for a file the screen refuses before sending it (spec point 5's texts). */
function refusal(kind: ImportKind, message: string): { title: string; description?: string } {
  if (kind === 'events' && message === IMPORT_MESSAGES.events.noData)
    return { title: IMPORT_MESSAGES.events.noDataTitle, description: message };
  if (kind === 'events' && message === IMPORT_MESSAGES.events.noValidRows)
    return { title: IMPORT_MESSAGES.events.noValidRowsTitle, description: message };
  return { title: 'Import failed', description: message };
}

function ColumnBadges({ kind, header }: { kind: ImportKind; header: string[] }) {
  const specs = Object.values(IMPORT_COLUMNS[kind]);
  const known = new Set(specs.flatMap((spec) => spec.keys));
  return (
    <div className="imports-columns" data-testid="import-columns">
      {header.map((cell, index) => {
        const key = headerKey(cell);
        return (
          <Badge
            key={`${index}-${cell}`}
            tone={known.has(key) ? 'success' : 'muted'}
            title={known.has(key) ? 'Used by the import' : 'Not used by the import'}
          >
            {cell || '(blank)'}
          </Badge>
        );
      })}
    </div>
  );
}

const SEPARATOR_NAMES: Record<Separator, string> = { ',': 'commas', ';': 'semicolons', '\t': 'tabs' };

function Preview({ kind, parsed, fileProblem }: { kind: ImportKind; parsed: ParsedCsv | null; fileProblem: string | null }) {
  if (fileProblem) {
    return (
      <Alert variant="destructive" title="This file cannot be imported">
        <span data-testid="import-preview-problem">{fileProblem}</span>
      </Alert>
    );
  }
  if (!parsed) return null;
  if (!parsed.ok) {
    return (
      <Alert variant="destructive" title="This text cannot be imported yet">
        <span data-testid="import-preview-problem">{parsed.message}</span>
        {parsed.detail && <span className="imports-detail">{parsed.detail}</span>}
      </Alert>
    );
  }
  const shown = parsed.rows.slice(0, PREVIEW_ROWS);
  return (
    <section className="imports-preview" aria-label="Preview" data-testid="import-preview">
      <p className="muted">
        {parsed.rows.length.toLocaleString('en')} {parsed.rows.length === 1 ? 'row' : 'rows'} to import
        {parsed.dropped > 0 &&
          `, ${parsed.dropped.toLocaleString('en')} left out (no ${kind === 'events' ? 'event_id' : 'Brand or Email'})`}
        . Detected columns
        {parsed.separator && parsed.separator !== ',' && ` (separated by ${SEPARATOR_NAMES[parsed.separator]})`}:
      </p>
      <ColumnBadges kind={kind} header={parsed.header} />
      <div className="imports-table-wrap">
        <table className="imports-table">
          <thead>
            <tr>
              <th scope="col">Line</th>
              {parsed.header.map((cell, index) => (
                <th scope="col" key={`${index}-${cell}`}>
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.line}>
                <td>{row.line}</td>
                {parsed.header.map((cell, index) => (
                  <td key={`${index}-${cell}`}>{row.values[cell] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {parsed.rows.length > PREVIEW_ROWS && <p className="muted imports-more">First {PREVIEW_ROWS} rows shown.</p>}
    </section>
  );
}

/** The bulk import screen of spec point 2, shared by events and brands. */
export function ImportScreen({ kind }: { kind: ImportKind }) {
  const config = SCREENS[kind];
  const isAdmin = useIsAdmin();
  const [text, setText] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const [starting, setStarting] = useState(false);
  // The import runs as a job: its id is remembered, so a reload or a visit elsewhere and back shows it again.
  const { id: jobId, startedHere, remember: rememberJob } = useRememberedJob(`pacer.import.${kind}`);
  const job = useJob(
    jobId,
    (finished) => {
      const finishedResult = finished.result as unknown as Result;
      if (finished.state === 'succeeded' && importedNothing(kind, finishedResult)) {
        toast({ title: 'Import failed', description: nothingImportedText(finishedResult), variant: 'destructive' });
      } else if (finished.state === 'succeeded') {
        toast({ title: 'Import completed', description: describeImport(kind, finishedResult) });
      } else if (finished.state === 'failed') {
        toast({ title: 'Import failed', description: finished.error?.message ?? config.failureFallback, variant: 'destructive' });
      } else {
        toast({
          title: 'Import cancelled',
          description: `Stopped after ${finished.progress.done.toLocaleString('en')} rows; the rows before were imported.`,
        });
      }
    },
    startedHere,
  );
  const running = job !== null && (job.state === 'queued' || job.state === 'running');
  const pending = starting || running || (jobId !== null && job === null);
  const shownResult = result ?? (job?.state === 'succeeded' ? (job.result as unknown as Result) : null);
  const [fileName, setFileName] = useState<string | null>(null);
  // How the chosen file was read, or why it could not be (then the text stays empty).
  const [fileEncoding, setFileEncoding] = useState<CsvEncoding | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const textId = useId();
  const fileId = useId();
  // The preview follows typing without holding it up on a long paste.
  const deferredText = useDeferredValue(text);
  // The CSV parser (csv-parse, ~14 KB gzip) loads after hydration, out of the page's first load.
  const csv = useLoadedAfterHydration(loadCsvParser);
  const parsed = useMemo(
    () => (deferredText.trim() === '' || !csv ? null : csv.parseImportCsv(kind, deferredText)),
    [csv, kind, deferredText],
  );
  const blank = text.trim() === '';

  /**
   * A file's bytes are decoded with the same detection as `pacer import` (File.text() would read every file as
   * UTF-8 and turn Windows-1252 accents into U+FFFD); a file that cannot be read is refused naming its line.
   */
  async function loadFile(file: File) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    setFileName(file.name);
    setResult(null);
    try {
      const decoded = decodeCsvBytes(bytes);
      setText(decoded.text);
      setFileEncoding(decoded.encoding);
      setFileProblem(null);
    } catch (error) {
      if (!(error instanceof CsvTextError)) throw error;
      setText('');
      setFileEncoding(null);
      setFileProblem(error.message);
    }
  }

  async function pickFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    event.target.value = '';
    await loadFile(file);
  }

  // A file dropped anywhere on the card is read like a chosen one; dropped text still goes into the text box.
  const carriesFile = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');
  function dragOver(event: DragEvent) {
    if (carriesFile(event)) event.preventDefault();
  }
  async function drop(event: DragEvent) {
    const file = event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    await loadFile(file);
  }

  function forgetFile() {
    setFileName(null);
    setFileEncoding(null);
    setFileProblem(null);
  }

  function clear() {
    setText('');
    setResult(null);
    rememberJob(null);
    forgetFile();
  }

  async function runImport() {
    const parser = csv ?? (await loadCsvParser());
    const checked = parser.parseImportCsv(kind, text);
    if (!checked.ok) {
      toast({ ...refusal(kind, checked.message), variant: 'destructive' });
      return;
    }
    setStarting(true);
    setResult(null);
    try {
      const started = await apiRequest<{ id: number }>('POST', '/api/jobs', { type: 'import', params: { kind, ...checked.payload } });
      rememberJob(started.id);
    } catch (error) {
      toast({ title: 'Import failed', description: messageOf(error, config.failureFallback), variant: 'destructive' });
    } finally {
      setStarting(false);
    }
  }

  const importButton = (
    <Button onClick={runImport} disabled={blank || pending}>
      {pending ? 'Importing...' : 'Import Data'}
    </Button>
  );
  const clearButton = (
    <Button variant="outline" onClick={clear} disabled={pending}>
      {config.clearLabel}
    </Button>
  );

  return (
    <div className="page imports-page">
      <PageHeader backTo={config.backTo} backLabel={config.backLabel} title={config.title} />
      <div className="imports-layout">
        <Card className="imports-input" onDragOver={dragOver} onDrop={drop}>
          <CardHeader title="CSV Data" />
          <div className="field">
            <Label htmlFor={textId}>Paste CSV data</Label>
            <Textarea
              id={textId}
              rows={config.rows}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                forgetFile();
              }}
              placeholder={IMPORT_SAMPLES[kind]}
              spellCheck={false}
              className="imports-textarea"
              data-testid="import-text"
            />
          </div>
          <div className="imports-file">
            <label htmlFor={fileId} className="btn btn-outline btn-sm">
              Choose CSV file
            </label>
            <input
              id={fileId}
              type="file"
              accept=".csv,text/csv,text/plain"
              className="visually-hidden"
              onChange={pickFile}
              data-testid="import-file"
            />
            {fileName && <span className="muted">{fileName}</span>}
            {fileEncoding && (
              <span className="muted" data-testid="import-file-encoding">
                read as {ENCODING_LABELS[fileEncoding]}
              </span>
            )}
          </div>
          <div className="form-actions">
            {kind === 'events' ? (
              <>
                {importButton}
                {clearButton}
              </>
            ) : (
              <>
                {clearButton}
                {importButton}
              </>
            )}
          </div>
          {job && job.state !== 'failed' && (
            <JobProgressBar job={job} unit="rows" onCancel={running ? () => void cancelJob(jobId, 'the import') : undefined} />
          )}
          <Preview kind={kind} parsed={parsed} fileProblem={fileProblem} />
        </Card>
        <Card className="imports-instructions">
          <CardHeader title="Instructions" />
          <ul>
            {config.instructions.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="muted">Sample:</p>
          <pre className="imports-sample" data-testid="import-sample">
            {IMPORT_SAMPLES[kind]}
          </pre>
          {isAdmin && (
            <p className="muted" data-testid="import-terminal-tip">
              Very large files import faster on the server: run <code>pacer import {kind} FILE</code> there.
            </p>
          )}
        </Card>
      </div>
      {shownResult && <ImportResults kind={kind} result={shownResult} />}
    </div>
  );
}

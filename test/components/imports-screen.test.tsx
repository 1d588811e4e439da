import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@shared/roles.js';
import { ImportScreen } from '@views/pages/imports/import-screen.js';
import { ACCENTED, brandsText, utf16leWithBom, utf8WithLateBadByte, windows1252 } from '../helpers/csv-bytes.js';
import { renderPage } from './records-render.js';

function renderScreen(kind: 'events' | 'brands', role: Role = 'staff') {
  return renderPage({ path: '/import', url: '/import', Component: () => <ImportScreen kind={kind} />, role });
}

const textarea = () => screen.getByTestId('import-text') as HTMLTextAreaElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const type = (text: string) => fireEvent.change(textarea(), { target: { value: text } });

afterEach(() => vi.unstubAllGlobals());

afterEach(() => window.localStorage.clear());

/**
 * The job API as the screen uses it: POST /api/jobs answers a job id, then GET /api/jobs/{id} answers the job
 * running (with progress) once and finished with `result` after that.
 */
function jobAnswering(result: Record<string, unknown>) {
  let reads = 0;
  return vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === 'POST' && url === '/api/jobs') return new Response(JSON.stringify({ id: 7 }), { status: 202 });
    const running = reads++ === 0;
    return new Response(
      JSON.stringify({
        id: 7,
        type: 'import',
        state: running ? 'running' : 'succeeded',
        progress: { done: running ? 1 : 2, total: 2, phase: running ? 'Importing' : 'Finished' },
        startedAt: new Date().toISOString(),
        cancelRequested: false,
        result: running ? null : result,
        error: null,
      }),
      { status: 200 },
    );
  });
}

describe('events import screen', () => {
  it("says 'Import failed' with 'No rows imported', not 'Import completed', when every row was refused", async () => {
    vi.stubGlobal(
      'fetch',
      jobAnswering({ updated: 0, created: 0, skipped: 0, errors: ['Line 2: no event has event_id 5', 'Line 3: no event has event_id 6'] }),
    );
    renderScreen('events');
    type('event_id,website,Email\n5,https://x.example.org,a@x.example.org\n6,,b@x.example.org\n');
    fireEvent.click(button('Import Data'));
    const tiles = await screen.findByTestId('import-results');
    expect(within(tiles).getByTestId('import-result-errors').className).not.toContain('imports-tile-zero');
    expect(within(tiles).getByTestId('import-result-updated').className).toContain('imports-tile-zero');
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Import failed'));
    expect(screen.getByTestId('toast').textContent).toContain('No rows imported: 2 errors');
    expect(screen.getByTestId('toast').textContent).not.toContain('Import completed');
  });

  it('has a 12-row textarea; Import is disabled while blank; Reset clears the text and the results', async () => {
    vi.stubGlobal('fetch', jobAnswering({ updated: 1, created: 2, skipped: 0, errors: [] }));
    renderScreen('events');
    expect(textarea().getAttribute('rows')).toBe('12');
    expect(button('Import Data').disabled).toBe(true);
    type('   \n ');
    expect(button('Import Data').disabled).toBe(true);
    type('event_id,website,Email\n5,https://x.example.org,a@x.example.org\n');
    expect(button('Import Data').disabled).toBe(false);
    fireEvent.click(button('Import Data'));
    expect(await screen.findByTestId('import-results')).toBeTruthy();
    fireEvent.click(button('Reset'));
    expect(textarea().value).toBe('');
    expect(screen.queryByTestId('import-results')).toBeNull();
    expect(button('Import Data').disabled).toBe(true);
  });

  it('previews the detected columns and first rows, then sends rows with their file lines and shows the tiles, errors and toast', async () => {
    const fetchMock = jobAnswering({ updated: 1, created: 3, skipped: 1, errors: ['Line 4: no event has event_id 9'] });
    vi.stubGlobal('fetch', fetchMock);
    renderScreen('events');
    type(
      'event_id,website,Emails,Notes\n\n5,https://x.example.org,"a@x.example.org, b@x.example.org",hi\n9,,c@y.example.org,\n,https://z.example.org,d@z.example.org,\n',
    );
    const preview = await screen.findByTestId('import-preview');
    expect(within(preview).getByText(/2 rows to import, 1 left out \(no event_id\)/)).toBeTruthy();
    const columns = within(screen.getByTestId('import-columns'))
      .getAllByText(/./)
      .map((badge) => [badge.textContent, badge.className.includes('badge-success')]);
    expect(columns).toEqual([
      ['event_id', true],
      ['website', true],
      ['Emails', true],
      ['Notes', false],
    ]);
    expect(
      within(preview)
        .getAllByRole('row')
        .map((row) => row.firstElementChild?.textContent),
    ).toEqual(['Line', '3', '4']);

    fireEvent.click(button('Import Data'));
    const tiles = await screen.findByTestId('import-results');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/jobs');
    const sent = JSON.parse(init.body as string) as { type: string; params: Record<string, unknown> };
    expect(sent.type).toBe('import');
    expect(sent.params).toEqual({
      kind: 'events',
      data: [
        { event_id: '5', website: 'https://x.example.org', Emails: 'a@x.example.org, b@x.example.org', Notes: 'hi' },
        { event_id: '9', website: '', Emails: 'c@y.example.org', Notes: '' },
      ],
      lines: [3, 4],
    });
    expect(within(tiles).getByTestId('import-result-updated').textContent).toBe('1Events Updated');
    expect(within(tiles).getByTestId('import-result-created').textContent).toBe('3Contacts Created');
    expect(within(tiles).getByTestId('import-result-skipped').textContent).toBe('1Skipped');
    expect(within(tiles).getByTestId('import-result-errors').textContent).toBe('1Errors');
    expect(screen.getByTestId('import-errors').textContent).toBe('Line 4: no event has event_id 9');
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('Import completed');
    expect(toast.textContent).toContain('Updated 1 events, created 3 contacts');
  });

  it("keeps the spec's toast word for word when only contacts were added, and the tiles say what each count is", async () => {
    vi.stubGlobal('fetch', jobAnswering({ updated: 0, created: 2, skipped: 0, errors: [] }));
    renderScreen('events');
    type('event_id,website,Email\n5,,a@x.example.org\n');
    fireEvent.click(button('Import Data'));
    const tiles = await screen.findByTestId('import-results');
    expect(within(tiles).getByTestId('import-result-updated').textContent).toBe('0Events Updated');
    expect(within(tiles).getByTestId('import-result-created').textContent).toBe('2Contacts Created');
    expect((await screen.findByTestId('toast')).textContent).toContain('Updated 0 events, created 2 contacts');
  });

  it('refuses text with a missing column or no usable rows with the spec texts, without calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderScreen('events');
    type('event_id,Email\n5,a@x.example.org\n');
    expect((await screen.findByTestId('import-preview-problem')).textContent).toBe('Missing required column: website');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Missing required column: website'));
    type('event_id,website\n5,x\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Missing email column. Expected: Email or Emails'));
    type('event_id,website,Email\n,x,a@b.org\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('No valid dataNo valid rows found in CSV data×'));
    type('event_id,website,Email\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('CSV must have at least a header row and one data row'));
    type('event_id,website,Email\n1,"open,a@b.org\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Invalid CSV format'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows 'Import failed' with the server's message, or 'Failed to import data'", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify({ message: 'Missing required column: website', code: 'bad_request' }), { status: 400 }),
      ),
    );
    renderScreen('events');
    type('event_id,website,Email\n5,,a@x.example.org\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Import failedMissing required column: website×'));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 502, statusText: 'Bad Gateway' })),
    );
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Import failedFailed to import data×'));
  });
});

describe('brands import screen', () => {
  it("has an 8-row textarea, 'Clear' and 'Import Data', and reports brands and contacts created", async () => {
    let answer!: (response: Response) => void;
    const jobs = jobAnswering({ brandsCreated: 1, contactsCreated: 1, skipped: 0, errors: [] });
    let first = true;
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        if (!first) return jobs(url, init);
        first = false;
        return new Promise<Response>((resolve) => (answer = resolve));
      }),
    );
    renderScreen('brands');
    expect(textarea().getAttribute('rows')).toBe('8');
    expect(button('Import Data').disabled).toBe(true);
    expect(screen.getByTestId('import-sample').textContent).toContain('"Fleet Feet, Inc."');
    type('Brand,First Name,Last Name,Email\n"Fleet Feet, Inc.",Jane,Doe,jane@ff.example.com\n');
    fireEvent.click(button('Import Data'));
    expect((await screen.findByRole('button', { name: 'Importing...' })).hasAttribute('disabled')).toBe(true);
    await act(async () => answer(new Response(JSON.stringify({ id: 7 }), { status: 202 })));
    // The job runs: its progress shows until it has finished.
    expect((await screen.findByTestId('job-progress-counts')).textContent).toContain('1 / 2 rows');
    expect((await screen.findByTestId('import-result-brandsCreated')).textContent).toBe('1Brands Created');
    expect(screen.getByTestId('import-result-contactsCreated').textContent).toBe('1Contacts Created');
    expect(screen.queryByTestId('import-errors')).toBeNull();
    expect((await screen.findByTestId('toast')).textContent).toContain('Created 1 brands and 1 contacts');
    fireEvent.click(button('Clear'));
    expect(textarea().value).toBe('');
    expect(screen.queryByTestId('import-results')).toBeNull();
  });

  it("uses the brands texts: 'No valid data found in CSV', 'CSV parsing error' and 'Unknown error occurred'", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 500, statusText: 'Internal Server Error' })),
    );
    renderScreen('brands');
    type('Brand,First Name,Last Name,Email\n,Jane,Doe,jane@ff.example.com\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Import failedNo valid data found in CSV×'));
    type('Brand,First Name,Last Name,Email\n"X,Jane,Doe,jane@ff.example.com\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('CSV parsing error'));
    type('Brand,First Name,Last Name,Email\nX,Jane,Doe,jane@ff.example.com\n');
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Import failedUnknown error occurred×'));
  });

  it('fills the textarea from a chosen file', async () => {
    renderScreen('brands');
    const file = new File(['Brand,First Name,Last Name,Email\nOn,Ola,Nord,ola@on.example.com\n'], 'brands.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [file] } });
    await waitFor(() => expect(textarea().value).toContain('ola@on.example.com'));
    expect(screen.getByText('brands.csv')).toBeTruthy();
    expect(await screen.findByTestId('import-preview')).toBeTruthy();
  });
});

describe('files and separators', () => {
  const expectedRows = [
    { Brand: ACCENTED.brand, 'First Name': ACCENTED.firstName, 'Last Name': ACCENTED.lastName, Email: ACCENTED.email },
    { Brand: 'Brooks Running', 'First Name': 'Zoë', 'Last Name': 'Faßbender', Email: 'zoe@brooks.example.com' },
  ];
  const csvFile = (bytes: Buffer, name = 'brands.csv') => new File([new Uint8Array(bytes)], name, { type: 'text/csv' });
  const choose = (file: File) => fireEvent.change(screen.getByTestId('import-file'), { target: { files: [file] } });

  async function importAndSent(fetchMock: ReturnType<typeof vi.fn>) {
    fireEvent.click(button('Import Data'));
    await screen.findByTestId('import-results');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    return (JSON.parse(init.body as string) as { params: { data: unknown[]; lines: number[] } }).params;
  }
  const answering = () => jobAnswering({ brandsCreated: 2, contactsCreated: 2, skipped: 0, errors: [] });

  it('reads a chosen Windows-1252 file (Excel on Windows) as the letters it holds and sends them exactly', async () => {
    const fetchMock = answering();
    vi.stubGlobal('fetch', fetchMock);
    renderScreen('brands');
    choose(csvFile(windows1252(brandsText())));
    await waitFor(() => expect(textarea().value).toBe(brandsText()));
    expect(screen.getByTestId('import-file-encoding').textContent).toBe('read as Windows-1252');
    const sent = await importAndSent(fetchMock);
    expect(sent).toEqual({ kind: 'brands', data: expectedRows, lines: [2, 3] });
    expect(JSON.stringify(sent)).not.toContain('\uFFFD');
  });

  it('reads a dropped UTF-16 file with tabs between its cells', async () => {
    const fetchMock = answering();
    vi.stubGlobal('fetch', fetchMock);
    renderScreen('brands');
    fireEvent.drop(textarea(), { dataTransfer: { files: [csvFile(utf16leWithBom(brandsText('\t')), 'unicode.txt')], types: ['Files'] } });
    await waitFor(() => expect(textarea().value).toBe(brandsText('\t')));
    expect(screen.getByText('unicode.txt')).toBeTruthy();
    expect(screen.getByTestId('import-file-encoding').textContent).toBe('read as UTF-16 LE');
    expect((await importAndSent(fetchMock)).data).toEqual(expectedRows);
  });

  it('detects semicolons in pasted text, and names them when a column is still missing', async () => {
    const fetchMock = answering();
    vi.stubGlobal('fetch', fetchMock);
    renderScreen('brands');
    type(brandsText(';'));
    const preview = await screen.findByTestId('import-preview');
    expect(within(preview).getByText(/separated by semicolons/)).toBeTruthy();
    expect((await importAndSent(fetchMock)).data).toEqual(expectedRows);
    type('Brand;Vorname;Nachname;Email\nX;A;B;a@b.example.org\n');
    expect((await screen.findByTestId('import-preview-problem')).textContent).toBe(
      'Missing required column: First Name (the header line is separated by semicolons)',
    );
  });

  it('refuses a file with an invalid byte far down, naming the line, and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderScreen('brands');
    choose(csvFile(utf8WithLateBadByte(3000, 2800), 'late.csv'));
    expect((await screen.findByTestId('import-preview-problem')).textContent).toBe(
      'Line 2800: not valid UTF-8 text (a character would be stored as \uFFFD); save the file as UTF-8 ("CSV UTF-8" in Excel) and import it again',
    );
    expect(screen.getByText('late.csv')).toBeTruthy();
    expect(textarea().value).toBe('');
    expect(button('Import Data').disabled).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses pasted text that already lost a character (U+FFFD), naming the line', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderScreen('brands');
    type('Brand,First Name,Last Name,Email\nCaf\uFFFD Running,Ren\uFFFD,M\uFFFDller,r@cafe.example.com\n');
    expect((await screen.findByTestId('import-preview-problem')).textContent).toBe(
      'Line 2: contains \uFFFD, a character lost before the text reached the import; correct it and import again',
    );
    fireEvent.click(button('Import Data'));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Line 2: contains \uFFFD'));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('the terminal tip', () => {
  it('tells an admin the command to run for very large files', () => {
    renderScreen('events', 'admin');
    const tip = screen.getByTestId('import-terminal-tip').textContent;
    expect(tip).toContain('Very large files import faster');
    expect(tip).toContain('pacer import events FILE');
  });

  it('is not shown to staff or viewers, who cannot use the server', () => {
    for (const role of ['staff', 'viewer'] as const) {
      const { unmount } = renderScreen('brands', role);
      expect(screen.getByTestId('import-sample')).toBeTruthy();
      expect(screen.queryByTestId('import-terminal-tip')).toBeNull();
      expect(document.body.textContent).not.toContain('pacer import');
      unmount();
    }
  });
});

/**
 * `npx tsx bench/import-preview.ts`: how long the mapping step of /imports/new takes for a large file, i.e.
 * `POST /api/imports/preview` of a BENCH_ROWS-row XLSX (default 50,000; issue 34 asks for ≤ 3 s) and of the same rows
 * as CSV, through the whole HTTP stack (multipart upload, the import's reader, row count, samples, saved mapping).
 * The app runs in this process on a fresh database (TEST_DATABASE_URL picks MariaDB, else SQLite); each file is
 * previewed BENCH_RUNS times (default 3) and every time is printed with the median.
 */
import ExcelJS from 'exceljs';
import { createTestApp } from '../test/helpers/app.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOAL_MS = 3000;
const HEADER = ['Given name', 'Surname', 'E-mail', 'Mobile', 'Position', 'Owner', 'Owner Type', 'Comments'];

function row(i: number): string[] {
  return [
    `Pat${i}`,
    `Row ${i}`,
    `pat${i}@club${i % 997}.example.org`,
    `+61 400 ${String(i).padStart(6, '0')}`,
    'Coach',
    `Club ${i % 997}`,
    'runclub',
    i % 3 ? '' : `Note, "quoted" ${i}`,
  ];
}

async function xlsxFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contacts');
  sheet.addRow(HEADER);
  for (let i = 0; i < ROWS; i++) sheet.addRow(row(i));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvCell = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
const csvFile = () =>
  Buffer.from([HEADER, ...Array.from({ length: ROWS }, (_, i) => row(i))].map((cells) => cells.map(csvCell).join(',')).join('\n'));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const t = await createTestApp();
try {
  const { agent } = await t.signedInAgent('bench-preview@example.org');
  for (const [kind, file] of [
    ['XLSX', await xlsxFile()],
    ['CSV', csvFile()],
  ] as const) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const res = await agent.post('/api/imports/preview').field('type', 'contact').attach('file', file, `contacts.${kind.toLowerCase()}`);
      times.push(performance.now() - started);
      if (res.status !== 200 || res.body.rowCount !== ROWS)
        throw new Error(`${kind} preview answered ${res.status}: ${res.text.slice(0, 300)}`);
    }
    const ms = median(times);
    console.log(
      `${kind} preview of ${ROWS.toLocaleString('en')} rows (${(file.length / 1024 / 1024).toFixed(1)} MB): ` +
        `${times.map((time) => `${Math.round(time)} ms`).join(', ')}; median ${Math.round(ms)} ms` +
        (kind === 'XLSX' ? ` (goal ≤ ${GOAL_MS} ms: ${ms <= GOAL_MS ? 'met' : 'NOT met'})` : ''),
    );
  }
} finally {
  await t.close();
}

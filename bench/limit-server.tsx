/**
 * The benchmark's "limit": what this machine can serve for the same answers with nothing in the way. node:http,
 * a mysql2 pool, and React's renderToString, running the product's essential queries on the same rows (a record and
 * what its page shows; a list page's rows; the dashboard's blocks with the product's statements), with no framework, no session, no hydration
 * data. Its pages load React and react-dom (bundled here at start) so first-load JavaScript has a limit too.
 * Reads DATABASE_URL (MySQL/MariaDB), PORT and HOST; started by bench/records.ts.
 */
import { createServer, type ServerResponse } from 'node:http';
import * as esbuild from 'esbuild';
import { createPool, type RowDataPacket } from 'mysql2/promise';
import { renderToString } from 'react-dom/server';

const url = new URL(process.env.DATABASE_URL!.replace(/^mariadb:/, 'mysql:'));
const pool = createPool({
  host: url.hostname,
  port: Number(url.port || 3306),
  user: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
  database: url.pathname.slice(1),
  charset: 'utf8mb4',
  dateStrings: true,
  supportBigNumbers: true,
  connectionLimit: 10,
});

/** URL segment → table, contact owner type (null: none), and the column a list shows as the name. */
const TYPES: Record<string, { table: string; owner: string | null; name: string }> = {
  events: { table: 'events', owner: 'event', name: 'eventName' },
  professionals: { table: 'professionals', owner: 'professional', name: 'businessName' },
  runclubs: { table: 'run_clubs', owner: 'runclub', name: 'clubName' },
  brands: { table: 'brands', owner: 'brand', name: 'brandName' },
  media: { table: 'media', owner: 'media', name: 'mediaName' },
  influencers: { table: 'influencers', owner: null, name: 'lastName' },
};
const PAGE_SIZE = 24;

type Row = Record<string, unknown>;

const client = await esbuild.build({
  stdin: {
    contents:
      "import { createElement } from 'react'; import { hydrateRoot } from 'react-dom/client'; window.hydrate = (el) => hydrateRoot(el, createElement('div'));",
    resolveDir: process.cwd(),
    loader: 'js',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  write: false,
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'error',
});
const clientScript = client.outputFiles[0]!.contents;

const text = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

function Page({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>{title}</title>
        <script type="module" src="/limit/react.js" />
      </head>
      <body>
        <h1>{title}</h1>
        {children}
      </body>
    </html>
  );
}

function Fields({ row }: { row: Row }) {
  return (
    <dl>
      {Object.entries(row).map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{text(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Table({ rows, columns }: { rows: Row[]; columns: string[] }) {
  return (
    <table>
      <tbody>
        {rows.map((row) => (
          <tr key={String(row.id)}>
            {columns.map((column) => (
              <td key={column}>{text(row[column])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

async function select(sql: string, values: unknown[] = []): Promise<Row[]> {
  const [rows] = await pool.query<RowDataPacket[]>(sql, values);
  return rows as Row[];
}

const listRows = (table: string) => select(`SELECT r.* FROM ${table} AS r ORDER BY r.id DESC LIMIT ?`, [PAGE_SIZE]);

/** A calendar day `days` after `day` ('YYYY-MM-DD', UTC). */
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The twelve months up to and including `day`'s, oldest first ('YYYY-MM'). */
function lastTwelveMonths(day: string): string[] {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return Array.from({ length: 12 }, (_, index) => {
    const date = new Date(Date.UTC(year, month - 1 - (11 - index), 1));
    return date.toISOString().slice(0, 7);
  });
}

/** Name columns of each type's table, as the product shows them (awaiting payments' owners, recent changes). */
const NAMES: Array<[owner: string, table: string, first: string, second: string | null]> = [
  ['event', 'events', 'eventName', null],
  ['professional', 'professionals', 'businessName', null],
  ['runclub', 'run_clubs', 'clubName', null],
  ['brand', 'brands', 'brandName', null],
  ['media', 'media', 'mediaName', null],
  ['influencer', 'influencers', 'firstName', 'lastName'],
];
const AWAITING = ['pending', 'overdue'];

/**
 * The product's dashboard reads (src/services/dashboard/queries.ts; the product sends them as one statement): every number in one
 * UNION ALL, then the upcoming events, the oldest awaiting payments with their owners' names, the last sync of each
 * kind and the recently changed records; rendered as plain blocks, the spend as a server-side SVG bar chart.
 */
async function dashboardBlocks() {
  const today = new Date().toISOString().slice(0, 10);
  const until = addDays(today, 60);
  const months = lastTwelveMonths(today);
  const awaitingParts = AWAITING.flatMap((status, index) => [
    `SELECT * FROM (SELECT id, description, amount, paymentDate, invoiceStatus, entityType, entityId FROM payments WHERE invoiceStatus = ${pool.escape(status)} AND paymentDate IS NOT NULL ORDER BY paymentDate, id LIMIT 5) AS dated_${index}`,
    `SELECT * FROM (SELECT id, description, amount, paymentDate, invoiceStatus, entityType, entityId FROM payments WHERE invoiceStatus = ${pool.escape(status)} AND paymentDate IS NULL ORDER BY id LIMIT 5) AS undated_${index}`,
  ]);
  const ownerJoins = NAMES.map(
    ([owner, table]) =>
      `LEFT JOIN ${table} AS owner_${owner} ON owner_${owner}.id = awaiting.entityId AND awaiting.entityType = '${owner}'`,
  ).join(' ');
  const ownerNames = NAMES.map(
    ([owner, , first, second]) =>
      `owner_${owner}.${first} AS ${owner}_first${second ? `, owner_${owner}.${second} AS ${owner}_second` : ''}`,
  ).join(', ');
  const recentParts = NAMES.map(
    ([owner, table, first, second]) =>
      `SELECT * FROM (SELECT '${owner}' AS type, id, updatedAt, ${first} AS name0, ${second ?? 'NULL'} AS name1 FROM ${table} ORDER BY updatedAt DESC, id DESC LIMIT 8) AS recent_${owner}`,
  );
  const [figures, upcoming, awaiting, syncs, recent] = await Promise.all([
    select(
      `SELECT 'count' AS part, kind AS code, bucket, total AS n, 0 AS cents FROM record_counts WHERE kind IN (1, 2, 3, 4, 5, 6) AND bucket = 'all'
       UNION ALL SELECT 'upcoming', 0, '', COUNT(*), 0 FROM events WHERE eventStartDate >= ? AND eventStartDate <= ?
       UNION ALL SELECT 'payments', 0, bucket, payments, cents FROM payment_totals WHERE bucket IN (?)`,
      [today, until, ['awaiting', ...months.map((month) => `spend:${month}`)]],
    ),
    select(
      'SELECT id, eventName, eventStartDate, eventEndDate, locationState, featuredRace FROM events WHERE eventStartDate >= ? AND eventStartDate <= ? ORDER BY eventStartDate, id LIMIT 8',
      [today, until],
    ),
    select(
      `SELECT awaiting.*, ${ownerNames} FROM (${awaitingParts.join(' UNION ALL ')}) AS awaiting ${ownerJoins}
       ORDER BY CASE WHEN awaiting.paymentDate IS NULL THEN 1 ELSE 0 END, awaiting.paymentDate, awaiting.id LIMIT 5`,
    ),
    select(
      `SELECT sync_runs.*, users.email AS startedByEmail FROM sync_runs
       JOIN (SELECT kind, MAX(id) AS id FROM sync_runs WHERE kind IN ('events', 'professionals', 'runclubs') GROUP BY kind) AS latest ON latest.id = sync_runs.id
       LEFT JOIN users ON users.id = sync_runs.startedBy`,
    ),
    select(`SELECT * FROM (${recentParts.join(' UNION ALL ')}) AS recent ORDER BY updatedAt DESC, id DESC, type LIMIT 8`),
  ]);
  const spend = months.map((month) => ({
    id: month,
    month,
    cents: Number(figures.find((row) => row.bucket === `spend:${month}`)?.cents ?? 0),
  }));
  const highest = Math.max(1, ...spend.map((month) => month.cents));
  return (
    <>
      <Table rows={figures.filter((row) => row.part === 'count').map((row) => ({ ...row, id: row.code }))} columns={['code', 'n']} />
      <h2>Upcoming events ({text(figures.find((row) => row.part === 'upcoming')?.n)})</h2>
      <Table rows={upcoming} columns={['eventName', 'eventStartDate', 'eventEndDate', 'locationState', 'featuredRace']} />
      <h2>Awaiting payment</h2>
      <Table
        rows={awaiting.map((row) => ({
          ...row,
          owner: NAMES.map(([owner]) => [row[`${owner}_first`], row[`${owner}_second`]].filter(Boolean).join(' ')).join(''),
        }))}
        columns={['description', 'amount', 'paymentDate', 'invoiceStatus', 'owner']}
      />
      <h2>Advertising spend</h2>
      <svg viewBox="0 0 240 100" width="240" height="100">
        {spend.map((month, index) => (
          <rect key={month.id} x={index * 20} y={100 - (month.cents / highest) * 100} width={16} height={(month.cents / highest) * 100}>
            <title>{`${month.month}: ${(month.cents / 100).toFixed(2)}`}</title>
          </rect>
        ))}
      </svg>
      <h2>Last sync</h2>
      <Table rows={syncs} columns={['kind', 'startedAt', 'finishedAt', 'success', 'created', 'updated', 'failed', 'startedByEmail']} />
      <h2>Recently changed</h2>
      <Table
        rows={recent.map((row) => ({ ...row, id: `${text(row.type)}${text(row.id)}` }))}
        columns={['type', 'name0', 'name1', 'updatedAt']}
      />
    </>
  );
}

function html(res: ServerResponse, element: React.ReactElement) {
  const body = '<!DOCTYPE html>' + renderToString(element);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function answer(path: string, res: ServerResponse) {
  if (path === '/healthz') return res.end('ok');
  if (path === '/limit/react.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    return res.end(clientScript);
  }
  if (path === '/') return html(res, <Page title="Dashboard">{await dashboardBlocks()}</Page>);
  if (path === '/api/events') {
    const body = JSON.stringify({ items: await listRows('events') });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    return res.end(body);
  }
  const [, segment, id] = /^\/(\w+)(?:\/(\d+))?$/.exec(path) ?? [];
  const type = segment ? TYPES[segment] : undefined;
  if (!type) {
    res.statusCode = 404;
    return res.end('not found');
  }
  if (!id) {
    const rows = await listRows(type.table);
    return html(res, <Page title={segment!}>{<Table rows={rows} columns={[type.name, 'locationState', 'createdAt']} />}</Page>);
  }
  const [[record], contacts, extra] = await Promise.all([
    select(`SELECT * FROM ${type.table} WHERE id = ? LIMIT 1`, [id]),
    type.owner
      ? select('SELECT * FROM contacts WHERE entityType = ? AND entityId = ? ORDER BY isPrimary DESC, lastName, firstName, id', [
          type.owner,
          id,
        ])
      : [],
    segment === 'events'
      ? select('SELECT * FROM event_distances WHERE eventId = ? ORDER BY distanceKm, id', [id])
      : segment === 'runclubs'
        ? select('SELECT * FROM run_club_schedules WHERE clubId = ? ORDER BY id', [id])
        : [],
  ]);
  if (!record) {
    res.statusCode = 404;
    return res.end('not found');
  }
  return html(
    res,
    <Page title={text(record[type.name])}>
      <Fields row={record} />
      <Table rows={contacts} columns={['firstName', 'lastName', 'jobTitle', 'email', 'phone']} />
      <Table rows={extra} columns={Object.keys(extra[0] ?? {})} />
    </Page>,
  );
}

createServer((req, res) => {
  answer(new URL(req.url!, 'http://limit').pathname, res).catch((error: unknown) => {
    console.error(error);
    res.statusCode = 500;
    res.end('error');
  });
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');

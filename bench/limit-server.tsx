/**
 * The benchmark's "limit": what this machine can serve for the same answers with nothing in the way. node:http,
 * a mysql2 pool, and React's renderToString, running the product's essential queries on the same rows (a record and
 * what its page shows; a list page's rows; the dashboard's counts), with no framework, no session, no hydration
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
  if (path === '/') {
    const counts = await select('SELECT kind, bucket, total FROM record_counts WHERE kind IN (1, 2, 3, 4, 5, 6)');
    const all = counts.filter((row) => row.bucket === 'all');
    return html(
      res,
      <Page title="Dashboard">{<Table rows={all.map((row) => ({ ...row, id: row.kind }))} columns={['kind', 'total']} />}</Page>,
    );
  }
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

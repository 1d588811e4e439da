import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { recordActivityEvents } from '@services/activity/log.js';
import { cliActor, type AppContext } from '@services/context.js';
import { exportContactsCsv, exportRecordsCsv, type CsvExport } from '@services/records/export.js';
import { ContactsQuerySchema } from '@shared/schemas/contacts-directory.js';
import { filterParamOf } from '@shared/list-options.js';
import { readListQuery } from '@shared/list-query.js';
import { RECORD_TYPES, RECORD_TYPE_INFO, recordTypeOfSegment } from '@shared/record-types.js';

interface ExportOptions {
  q?: string;
  filter?: string;
  sort?: string;
  dir?: string;
  out?: string;
}

const LISTS = [...RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].segment), 'contacts'];

/**
 * `pacer export <list>`: the list as the screens' "Export CSV" gives it (same search, filter and sort rules, same
 * columns), to stdout or to a file written whole or not at all.
 */
async function runExport(io: CliIO, list: string, options: ExportOptions): Promise<void> {
  const search = new URLSearchParams();
  if (options.q !== undefined) search.set('q', options.q);
  if (options.sort !== undefined) search.set('sort', options.sort);
  if (options.dir !== undefined) search.set('dir', options.dir);
  const makeCsv = csvMaker(list, search, options.filter);

  // Written beside the target and renamed at the end, so a failed export never leaves half a file; opened before
  // anything is read, so an unusable path fails at once.
  const target = options.out === undefined ? undefined : path.resolve(options.out);
  const partial = target && `${target}.partial-${process.pid}`;
  const file = partial === undefined ? undefined : await open(partial, 'wx');

  try {
    await exportTo(io, list, makeCsv, file, partial, target);
  } catch (error) {
    await file?.close().catch(() => undefined);
    if (partial) await rm(partial, { force: true });
    throw error;
  }
}

/** Checks the list's parameters (a refusal is bad usage) and answers how to make its CSV once connected. */
function csvMaker(list: string, search: URLSearchParams, filter: string | undefined): (ctx: AppContext) => CsvExport {
  if (list === 'contacts') {
    // The directory's filter is the owner type.
    if (filter !== undefined) search.set('ownerType', filter);
    const parsed = ContactsQuerySchema.safeParse(Object.fromEntries(search));
    if (!parsed.success) throw new CliExit(EXIT.usage, parsed.error.issues[0]?.message ?? 'Invalid parameters');
    return (ctx) => exportContactsCsv(ctx, Object.fromEntries(search));
  }
  const kind = recordTypeOfSegment(list);
  if (!kind) throw new CliExit(EXIT.usage, `Unknown list ${list}: expected one of ${LISTS.join(', ')}`);
  if (filter !== undefined) {
    const param = filterParamOf(kind);
    if (!param) throw new CliExit(EXIT.usage, `${list} has no filter`);
    search.set(param, filter);
  }
  const read = readListQuery(kind, search, 'api');
  if (!read.ok) throw new CliExit(EXIT.usage, read.message);
  return (ctx) => exportRecordsCsv(ctx, kind, read.query);
}

async function exportTo(
  io: CliIO,
  list: string,
  makeCsv: (ctx: AppContext) => CsvExport,
  file: FileHandle | undefined,
  partial: string | undefined,
  target: string | undefined,
): Promise<void> {
  await withContext(io, async (ctx) => {
    const csv = makeCsv(ctx);
    // Rows so far, redrawn on stderr when it is a terminal.
    const rows = () => csv.rowsWritten();
    const progress = io.stderr.isTTY ? setInterval(() => io.stderr.write(`\r${rows().toLocaleString('en')} rows`), 200) : undefined;
    try {
      if (!file || !partial || !target) {
        await pipeline(csv, io.stdout, { end: false });
      } else {
        await pipeline(csv, file.createWriteStream());
        await rename(partial, target);
      }
    } finally {
      clearInterval(progress);
      if (progress) io.stderr.write(`\r${rows().toLocaleString('en')} rows exported\n`);
    }
    // Only a whole export is one: the activity log names it as the screens' "Export CSV" is named.
    await recordActivityEvents(ctx.db, ctx, cliActor(), [
      { kind: 'export', summary: `Exported ${list} as CSV with pacer export (${rows().toLocaleString('en')} rows)` },
    ]);
  });
}

export const registerExportCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  program
    .command('export')
    .description("Export a list as CSV (UTF-8 with BOM), with the list screen's search, filter and sort")
    .addArgument(program.createArgument('<list>', 'which list').choices(LISTS))
    .option('--q <text>', 'search text')
    .option('--filter <value>', 'events: featured|regular; runclubs: trail|road|track|mixed; contacts: the owner type')
    .option('--sort <column>', 'sort column (as in the list URL)')
    .addOption(new Option('--dir <direction>', 'sort direction').choices(['asc', 'desc']))
    .option('--out <file>', 'write to this file instead of stdout')
    .action((list: string, options: ExportOptions) => runExport(io, list, options));
};

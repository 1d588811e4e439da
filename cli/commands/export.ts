import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { exportRecordsCsv } from '@services/records/export.js';
import { filterParamOf, readListQuery } from '@shared/list-query.js';
import { RECORD_TYPES, RECORD_TYPE_INFO, recordTypeOfSegment, type RecordType } from '@shared/record-types.js';
import type { ListQuery } from '@shared/schemas/records.js';

interface ExportOptions {
  q?: string;
  filter?: string;
  sort?: string;
  dir?: string;
  out?: string;
}

const LISTS = RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].segment);

/**
 * `pacer export <list>`: the list as the screens' "Export CSV" gives it (same search, filter and sort rules, same
 * columns), to stdout or to a file written whole or not at all.
 */
async function runExport(io: CliIO, list: string, options: ExportOptions): Promise<void> {
  const kind = recordTypeOfSegment(list);
  if (!kind) throw new CliExit(EXIT.usage, `Unknown list ${list}: expected one of ${LISTS.join(', ')}`);
  const search = new URLSearchParams();
  if (options.q !== undefined) search.set('q', options.q);
  if (options.sort !== undefined) search.set('sort', options.sort);
  if (options.dir !== undefined) search.set('dir', options.dir);
  if (options.filter !== undefined) {
    const param = filterParamOf(kind);
    if (!param) throw new CliExit(EXIT.usage, `${list} has no filter`);
    search.set(param, options.filter);
  }
  const read = readListQuery(kind, search, 'api');
  if (!read.ok) throw new CliExit(EXIT.usage, read.message);

  // Written beside the target and renamed at the end, so a failed export never leaves half a file; opened before
  // anything is read, so an unusable path fails at once.
  const target = options.out === undefined ? undefined : path.resolve(options.out);
  const partial = target && `${target}.partial-${process.pid}`;
  const file = partial === undefined ? undefined : await open(partial, 'wx');

  try {
    await exportTo(io, kind, read.query, file, partial, target);
  } catch (error) {
    await file?.close().catch(() => undefined);
    if (partial) await rm(partial, { force: true });
    throw error;
  }
}

async function exportTo(
  io: CliIO,
  kind: RecordType,
  query: ListQuery<RecordType>,
  file: FileHandle | undefined,
  partial: string | undefined,
  target: string | undefined,
): Promise<void> {
  await withContext(io, async (ctx) => {
    const csv = exportRecordsCsv(ctx, kind, query);
    // Rows so far, redrawn on stderr when it is a terminal (csv-stringify counts records, the header included).
    const rows = () => Math.max(0, (csv as unknown as { info: { records: number } }).info.records - 1);
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
  });
}

export const registerExportCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  program
    .command('export')
    .description("Export a list as CSV (UTF-8 with BOM), with the list screen's search, filter and sort")
    .addArgument(program.createArgument('<list>', 'which list').choices(LISTS))
    .option('--q <text>', 'search text')
    .option('--filter <value>', 'events: featured|regular; runclubs: trail|road|track|mixed')
    .option('--sort <column>', 'sort column (as in the list URL)')
    .addOption(new Option('--dir <direction>', 'sort direction').choices(['asc', 'desc']))
    .option('--out <file>', 'write to this file instead of stdout')
    .action((list: string, options: ExportOptions) => runExport(io, list, options));
};

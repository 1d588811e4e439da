import { open, readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { printable, printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { AppError } from '@services/errors.js';
import { readTable } from '@services/imports/general/read.js';
import { runGeneralImport, type GeneralImportResult } from '@services/imports/general/service.js';
import { cliActor } from '@services/context.js';
import { IMPORT_KEYS, IMPORT_MODES, type GeneralImportType, type ImportKey, type ImportMode } from '@shared/imports/general.js';

/**
 * `pacer import TYPE FILE --map map.json`: the general import (docs/decisions/0107-general-import.md) of any list or
 * of contacts, from CSV or XLSX. map.json maps the file's headers to field names (null ignores a column); headers it
 * leaves out are matched by name. The report lists every row that was not simply created, or every row with --json.
 */

export interface GeneralImportCliOptions {
  map?: string;
  mode?: string;
  key?: string;
  dryRun?: boolean;
  json?: boolean;
  ownerType?: string;
  ownerColumn?: string;
}

/** The file as a stream (never held whole: it may be large), opened first so a missing file is a usage error. */
async function openInput(io: CliIO, file: string): Promise<AsyncIterable<Buffer>> {
  if (file === '-') return io.stdin as AsyncIterable<Buffer>;
  try {
    const handle = await open(file);
    if ((await handle.stat()).isDirectory()) {
      await handle.close();
      throw Object.assign(new Error(file), { code: 'EISDIR' });
    }
    return handle.createReadStream();
  } catch (error) {
    throw new CliExit(EXIT.usage, `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

async function readMapping(file: string): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CliExit(EXIT.usage, `Cannot read the mapping ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CliExit(EXIT.usage, 'The mapping must be a JSON object of "file header": "field name" (or null)');
  return parsed as Record<string, unknown>;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], option: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new CliExit(EXIT.usage, `${option} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function summary(result: GeneralImportResult): string[] {
  const { counts } = result;
  const head = result.dryRun ? 'Dry run (nothing written): would have' : 'Import finished:';
  const lines = [
    `${head} created ${counts.created}, updated ${counts.updated}; unchanged ${counts.unchanged}, skipped ${counts.skipped}, failed ${counts.failed}.`,
  ];
  const notable = result.rows.filter((row) => row.outcome === 'failed' || row.outcome === 'skipped');
  if (notable.length) lines.push('Rows:', ...notable.slice(0, 50).map((row) => `  row ${row.row}: ${row.outcome}: ${row.message}`));
  if (notable.length > 50) lines.push(`  … and ${notable.length - 50} more (--json lists every row)`);
  return lines;
}

export async function runGeneralImportCommand(io: CliIO, type: GeneralImportType, file: string, options: GeneralImportCliOptions) {
  const mode = oneOf<ImportMode>(options.mode, IMPORT_MODES, '--mode');
  const key = oneOf<ImportKey>(options.key, IMPORT_KEYS, '--key');
  if (type !== 'contact' && (options.ownerType || options.ownerColumn))
    throw new CliExit(EXIT.usage, '--owner-type and --owner-column are for contacts');
  const mapping = options.map ? await readMapping(options.map) : undefined;
  const input = await openInput(io, file);
  const result = await withContext(io, async (ctx) => {
    try {
      return await runGeneralImport(ctx, cliActor(), await readTable(input), {
        type,
        mapping,
        mode,
        key,
        dryRun: options.dryRun,
        ownerType: options.ownerType,
        ownerColumn: options.ownerColumn,
      });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        if (options.json) printJson(io, { error: { code: error.code, message: error.message } });
        throw new CliExit(EXIT.failure, `Error: ${error.message}`);
      }
      throw error;
    }
  });
  if (options.json) printJson(io, result);
  else io.stdout.write(`${summary(result).map(printable).join('\n')}\n`);
  const applied = result.counts.created + result.counts.updated + result.counts.unchanged;
  if (result.counts.failed > 0) throw new CliExit(applied > 0 ? EXIT.partial : EXIT.failure, '');
}

/** The options of the general import, on a command. */
export function withGeneralImportOptions(command: Command, forContacts: boolean): Command {
  command
    .option('--map <file>', 'JSON mapping of file headers to field names (null ignores a column)')
    .option('--mode <mode>', `create, update or upsert (create or update; the default)`)
    .option('--key <field>', `what matches a row to a record: ${IMPORT_KEYS.join(', ')} (default: the file's ID column, else the name)`);
  if (forContacts)
    command
      .option('--owner-type <type>', "every row's owner type (else the file's Owner Type column)")
      .option('--owner-column <header>', "the column holding each contact's owner, by id or name (else the Owner column)");
  return command;
}

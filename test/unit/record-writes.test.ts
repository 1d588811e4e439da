import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ALL_DEFINITIONS, CONTACT_INDEX } from '@services/records/definitions.js';

/**
 * Every write to a record table goes through src/services/records/writes.ts, and every write to contacts through
 * src/services/contacts/writes.ts, which keep the search index and the counts in step (ADR 0011). This scans the application's code (src/, cli/, seeds/) for Knex writes and raw
 * SQL writes and fails on one that targets a record table anywhere else, or whose table it cannot name (a table
 * passed around in a variable could be a record table). Migrations (frozen schema work) and the benchmarks (bulk
 * loads followed by rebuildDerivedData) are outside the application and not scanned.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const WRITES_MODULE = 'src/services/records/writes.ts';
/**
 * A restore loads every table of a backup into a staged database, whatever it holds, and rebuilds the search index
 * and counts from those rows before the staged database replaces the live one: the one other writer of record rows.
 */
const RESTORE_MODULE = 'src/services/backup/restore.ts';
const recordTables = new Set(ALL_DEFINITIONS.map((definition) => definition.table));
const CONTACT_WRITES_MODULE = 'src/services/contacts/writes.ts';
const contactTables = new Set([CONTACT_INDEX.table]);
const WRITE_METHODS = new Set(['insert', 'update', 'del', 'delete', 'truncate', 'increment', 'decrement', 'upsert']);
/** Builder methods that name the table, as in db.insert(row).into('events') or db.table('events').update(…). */
const TABLE_METHODS = new Set(['into', 'table', 'from']);
/** src/db/bulk-rows.ts: a call writes the table named by its second argument. */
const BULK_WRITE = 'insertRowsInBulk';
const RAW_WRITE = /\b(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update|delete\s+from)\s+[`"']?(\?\?|\w+)/gi;

interface Write {
  file: string;
  line: number;
  /** The table written, or null when the code does not say it in a way this check can read. */
  table: string | null;
}

/** The string constants of a file (`const NAME = 'text'`), which table names are often kept in. */
function stringConstants(source: ts.SourceFile): Map<string, string> {
  const constants = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteralLike(node.initializer)) {
      if (ts.isVariableDeclarationList(node.parent) && node.parent.flags & ts.NodeFlags.Const)
        constants.set(node.name.text, node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return constants;
}

/** The tables an expression can stand for, or null when it is not a literal, a string constant or a parameter typed as those. */
function tablesOf(expression: ts.Expression, constants: Map<string, string>): string[] | null {
  if (ts.isStringLiteralLike(expression)) return [expression.text.split(/\s+as\s+/i)[0]!.trim()];
  if (!ts.isIdentifier(expression)) return null;
  const constant = constants.get(expression.text);
  if (constant !== undefined) return [constant];
  const parameter = findParameter(expression);
  if (!parameter?.type) return null;
  const members = ts.isUnionTypeNode(parameter.type) ? [...parameter.type.types] : [parameter.type];
  const tables: string[] = [];
  for (const member of members) {
    if (ts.isLiteralTypeNode(member) && ts.isStringLiteral(member.literal)) tables.push(member.literal.text);
    else if (ts.isTypeQueryNode(member) && ts.isIdentifier(member.exprName) && constants.has(member.exprName.text))
      tables.push(constants.get(member.exprName.text)!);
    else return null;
  }
  return tables;
}

function findParameter(identifier: ts.Identifier): ts.ParameterDeclaration | undefined {
  for (let node: ts.Node | undefined = identifier.parent; node; node = node.parent) {
    if (ts.isFunctionLike(node)) {
      const parameter = node.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === identifier.text);
      if (parameter) return parameter;
    }
  }
  return undefined;
}

/**
 * The table a write chain such as `trx('events').where({ id }).update(values)` writes: the argument of the call
 * the chain starts from (the Knex instance called with a table), or of into/table/from along the way. Chains
 * that start from anything else (a Map's delete, a hash's update) are not database writes.
 */
function chainTable(receiver: ts.Expression, constants: Map<string, string>): { isKnex: boolean; tables: string[] | null } {
  let named: ts.Expression | undefined;
  for (let node: ts.Expression = receiver; ;) {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee)) {
        if (TABLE_METHODS.has(callee.name.text) && node.arguments[0]) named = node.arguments[0];
        node = callee.expression;
        continue;
      }
      if (ts.isIdentifier(callee) && node.arguments.length === 1)
        return { isKnex: true, tables: tablesOf(named ?? node.arguments[0]!, constants) };
      return { isKnex: false, tables: null };
    }
    if (
      ts.isPropertyAccessExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isParenthesizedExpression(node) ||
      ts.isAwaitExpression(node)
    ) {
      node = node.expression;
      continue;
    }
    // db.table('events').update(…), or db.insert(row).into('events'): the chain starts at the Knex instance itself.
    named ??= outerTable(receiver);
    return named ? { isKnex: true, tables: tablesOf(named, constants) } : { isKnex: false, tables: null };
  }
}

/** The table named after the write, as in db.insert(row).into('events'). */
function outerTable(receiver: ts.Expression): ts.Expression | undefined {
  // receiver → .insert → insert(…) → .into → into('events')
  for (
    let node: ts.Node = receiver.parent.parent;
    ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.parent);
    node = node.parent.parent
  ) {
    const access = node.parent;
    if (TABLE_METHODS.has(access.name.text) && ts.isCallExpression(access.parent) && access.parent.arguments[0])
      return access.parent.arguments[0];
  }
  return undefined;
}

function writesIn(file: string, text: string): Write[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const constants = stringConstants(source);
  const writes: Write[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === BULK_WRITE && node.arguments[1])
      for (const table of tablesOf(node.arguments[1], constants) ?? [null]) writes.push({ file, line: lineOf(node), table });
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (WRITE_METHODS.has(method)) {
        const { isKnex, tables } = chainTable(node.expression.expression, constants);
        if (isKnex) for (const table of tables ?? [null]) writes.push({ file, line: lineOf(node), table });
      }
      if (method === 'raw' && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
        for (const match of node.arguments[0].text.matchAll(RAW_WRITE))
          writes.push({ file, line: lineOf(node), table: match[1] === '??' ? null : match[1]! });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

/** Writes that bypass a writes module: to one of its tables, or to a table the code does not name. */
const bypasses = (writes: readonly Write[], tables: ReadonlySet<string> = recordTables) =>
  writes.filter((write) => write.table === null || tables.has(write.table));

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

describe('record table writes', () => {
  it('go through src/services/records/writes.ts and nowhere else', () => {
    const files = ['src', 'cli', 'seeds'].flatMap(sourceFiles);
    expect(files).toContain(WRITES_MODULE);
    expect(files).toContain(RESTORE_MODULE);
    const found = files
      .filter((file) => file !== WRITES_MODULE && file !== RESTORE_MODULE)
      .flatMap((file) => writesIn(file, readFileSync(path.join(ROOT, file), 'utf8')));
    // The scan sees the other writers (users, contacts, sync runs…), so finding no bypass means something.
    expect(found.length).toBeGreaterThan(10);
    expect(bypasses(found).map((write) => `${write.file}:${write.line} writes ${write.table ?? 'a table it does not name'}`)).toEqual([]);
  });

  it('to contacts go through src/services/contacts/writes.ts and nowhere else', () => {
    const files = ['src', 'cli', 'seeds'].flatMap(sourceFiles);
    expect(files).toContain(CONTACT_WRITES_MODULE);
    const found = files
      .filter((file) => file !== CONTACT_WRITES_MODULE)
      .flatMap((file) => writesIn(file, readFileSync(path.join(ROOT, file), 'utf8')));
    const named = (write: Write) => `${write.file}:${write.line} writes ${write.table ?? 'a table it does not name'}`;
    // A write whose table the scan cannot name is judged by the record writes' check above (and its module exempt).
    expect(
      bypasses(found, contactTables)
        .filter((write) => write.table !== null)
        .map(named),
    ).toEqual([]);
    const own = writesIn(CONTACT_WRITES_MODULE, readFileSync(path.join(ROOT, CONTACT_WRITES_MODULE), 'utf8'));
    expect(bypasses(own, contactTables).length).toBeGreaterThanOrEqual(6);
  });

  it('are recognised by the scan in every form a bypass could take', () => {
    const snippet = `
      const MEDIA = 'media';
      async function bypass(trx, db, definition, id) {
        await trx('events').where({ id }).update({ eventName: 'x' });
        await db(definition.table).insert({});
        await db.insert({ brandName: 'b' }).into('brands');
        await trx('professionals as p').where('p.id', id).del();
        await db(MEDIA).delete();
        await db.raw('DELETE FROM influencers WHERE id = ?', [id]);
        await db.raw('UPDATE ?? SET n = 0', [definition.table]);
        await trx('run_clubs').increment('membershipCount', 1);
        await insertRowsInBulk(trx, 'events', ['eventName'], [['x']]);
        await insertRowsInBulk(trx, definition.table, ['eventName'], [['x']]);
      }
      async function fine(trx, cache, hash) {
        await trx('contacts').insert({});
        await trx('events').where({ id: 1 }).first();
        cache.delete('events');
        hash.update('events');
      }`;
    const found = bypasses(writesIn('snippet.ts', snippet));
    expect(found.map((write) => write.table)).toEqual([
      'events',
      null,
      'brands',
      'professionals',
      'media',
      'influencers',
      null,
      'run_clubs',
      'events',
      null,
    ]);
    // The same scan finds the contacts write the record check lets through.
    expect(
      bypasses(writesIn('snippet.ts', snippet), contactTables)
        .filter((write) => write.table !== null)
        .map((write) => write.table),
    ).toEqual(['contacts']);
  });

  it('read the record tables from the record definitions', () => {
    expect([...recordTables].sort()).toEqual(['brands', 'events', 'influencers', 'media', 'professionals', 'run_clubs']);
    // The scan would flag the writes module itself: it is exempt by name, not because its writes went unseen.
    const own = writesIn(WRITES_MODULE, readFileSync(path.join(ROOT, WRITES_MODULE), 'utf8'));
    expect(bypasses(own).length).toBeGreaterThanOrEqual(4);
  });
});

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules of docs/conventions.md are lint rules (import-x/no-restricted-paths in eslint.config.js), so a
 * wrong import fails `npm run lint`. Each case lints one import as if it were written in a file of that layer:
 * the wrong one must be refused, the right one must pass. The imported files are real, because the rule only
 * judges imports it can resolve.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RULE = 'import-x/no-restricted-paths';

interface Case {
  layer: string;
  /** The file the import is written in (need not exist). */
  file: string;
  wrong: string;
  right: string;
}

const cases: Case[] = [
  { layer: 'src/shared imports only src/shared', file: 'src/shared/probe.ts', wrong: '../services/errors.js', right: './record-types.js' },
  {
    layer: 'src/shared never imports views',
    file: 'src/shared/schemas/probe.ts',
    wrong: '../../../views/data/http.js',
    right: '../record-types.js',
  },
  {
    layer: 'views import src/shared, not services',
    file: 'views/pages/probe.tsx',
    wrong: '../../src/services/errors.js',
    right: '../../src/shared/record-types.js',
  },
  {
    layer: 'views never import integrations',
    file: 'views/probe.ts',
    wrong: '../src/integrations/wordpress/types.js',
    right: './data/http.js',
  },
  {
    layer: 'services never import views',
    file: 'src/services/probe.ts',
    wrong: '../../views/data/http.js',
    right: '../shared/record-types.js',
  },
  {
    layer: 'services never import api, server or ssr',
    file: 'src/services/records/probe.ts',
    wrong: '../../api/actor.js',
    right: '../errors.js',
  },
  {
    layer: 'integrations never import services',
    file: 'src/integrations/probe.ts',
    wrong: '../services/errors.js',
    right: '../shared/record-types.js',
  },
  {
    layer: 'cli never imports src/server',
    file: 'cli/probe.ts',
    wrong: '../src/server/context.js',
    right: '../src/context/app-context.js',
  },
  { layer: 'src/db imports nothing above it', file: 'src/db/probe.ts', wrong: '../services/errors.js', right: './codecs.js' },
  {
    layer: 'src/db imports migrations only for their list',
    file: 'src/db/probe.ts',
    wrong: '../../migrations/helpers.js',
    right: '../../migrations/index.js',
  },
  { layer: 'migrations never import src', file: 'migrations/probe.ts', wrong: '../src/db/codecs.js', right: './helpers.js' },
  { layer: 'api never imports ssr', file: 'src/api/probe.ts', wrong: '../ssr/render.js', right: './http-plumbing.js' },
  // The web server hands the API its session, locale and not-found plumbing: not even those are imported.
  { layer: 'api never imports src/server', file: 'src/api/core/probe.ts', wrong: '../../server/session.js', right: '../http-plumbing.js' },
  {
    layer: 'api never imports src/server, by alias too',
    file: 'src/api/probe.ts',
    wrong: '@server/session.js',
    right: '@services/errors.js',
  },
  // The rules judge the file an import resolves to, so a path alias is held to them too.
  {
    layer: 'views import src/shared, not services, by alias too',
    file: 'views/pages/probe.tsx',
    wrong: '@services/errors.js',
    right: '@shared/record-types.js',
  },
  {
    layer: 'src/shared never imports services, by alias too',
    file: 'src/shared/probe.ts',
    wrong: '@services/errors.js',
    right: '@shared/record-types.js',
  },
  {
    layer: 'ssr never imports src/server',
    file: 'src/ssr/probe.ts',
    wrong: '../server/main.js',
    right: '../shared/request-locale.js',
  },
  {
    layer: 'ssr never imports src/server, by alias too',
    file: 'src/ssr/probe.ts',
    wrong: '@server/types.js',
    right: '@services/errors.js',
  },
];

describe('layer rules', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });
  });

  const layerErrors = async (file: string, specifier: string) => {
    const [result] = await eslint.lintText(`import * as probe from '${specifier}';\nexport { probe };\n`, {
      filePath: path.join(root, file),
    });
    return (result?.messages ?? []).filter((message) => message.ruleId === RULE);
  };

  it.each(cases)('$layer', async ({ file, wrong, right }) => {
    expect(await layerErrors(file, wrong), `${file} importing ${wrong}`).toHaveLength(1);
    expect(await layerErrors(file, right), `${file} importing ${right}`).toEqual([]);
  });

  it('has no exceptions for the API: every file of src/server is refused to it', async () => {
    for (const file of readdirSync(path.join(root, 'src/server')).filter((name) => name.endsWith('.ts'))) {
      expect(
        await layerErrors('src/api/probe.ts', `../server/${file.replace(/\.ts$/, '.js')}`),
        `src/api importing src/server/${file}`,
      ).toHaveLength(1);
    }
  });

  it('has no exceptions for ssr either: every file of src/server is refused to it', async () => {
    for (const file of readdirSync(path.join(root, 'src/server')).filter((name) => name.endsWith('.ts'))) {
      expect(
        await layerErrors('src/ssr/probe.ts', `../server/${file.replace(/\.ts$/, '.js')}`),
        `src/ssr importing src/server/${file}`,
      ).toHaveLength(1);
    }
  });

  it("keeps no exception list but the migration runner's one file", async () => {
    const { default: config } = (await import(path.join(root, 'eslint.config.js'))) as {
      default: Array<{ rules?: Record<string, unknown> }>;
    };
    const zones = config.flatMap((entry) => {
      const rule = entry.rules?.[RULE] as [string, { zones: Array<{ target: string | string[]; except?: string[] }> }] | undefined;
      return rule ? rule[1].zones : [];
    });
    expect(zones.length).toBeGreaterThan(5);
    expect(zones.filter((zone) => zone.except).map((zone) => [zone.target, zone.except])).toEqual([['./src/db', ['./index.ts']]]);
  });

  it('refuses a type-only import across a layer too', async () => {
    const [result] = await eslint.lintText("import type { AppContext } from '../services/context.js';\nexport type Probe = AppContext;\n", {
      filePath: path.join(root, 'src/shared/probe.ts'),
    });
    expect(result?.messages.filter((message) => message.ruleId === RULE)).toHaveLength(1);
  });

  it('refuses an import that climbs two folders: it must use a path alias', async () => {
    const messages = async (specifier: string) => {
      const [result] = await eslint.lintText(`import * as probe from '${specifier}';\nexport { probe };\n`, {
        filePath: path.join(root, 'views/pages/probe.tsx'),
      });
      return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports');
    };
    expect(await messages('../../src/shared/record-types.js')).toHaveLength(1);
    expect(await messages('@shared/record-types.js')).toEqual([]);
    expect(await messages('../data/http.js')).toEqual([]);
  });
});

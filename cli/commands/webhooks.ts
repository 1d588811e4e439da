import type { Command } from 'commander';
import { cliActor } from '@services/context.js';
import { createWebhook, deleteWebhook, listWebhooks, parseWebhookId } from '@services/webhooks/service.js';
import type { CommandRegistrar } from '../program.js';
import { printable, printJson } from '../output.js';
import { withContext, type CliIO } from '../runtime.js';

/** `pacer webhooks create|list|delete`: the endpoints of /settings/webhooks (docs/webhooks.md). */
export const registerWebhooksCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const webhooks = program.command('webhooks').description('Webhook endpoints told of changes (signed, Standard Webhooks)');

  webhooks
    .command('create')
    .description('Add an endpoint; prints its signing secret, shown only this once')
    .requiredOption('--url <url>', 'the http(s) URL to POST events to')
    .requiredOption('--events <list>', 'comma-separated events, e.g. record.created,record.updated, contact.* or *')
    .option('--json', 'machine-readable output: {"id","url","events","secret"}')
    .action(async (opts: { url: string; events: string; json?: boolean }) => {
      const created = await withContext(io, (ctx) => createWebhook(ctx, cliActor(), { url: opts.url, events: opts.events }));
      if (opts.json) {
        printJson(io, created);
        return;
      }
      io.stdout.write(`Created webhook ${created.id} for ${printable(created.url)} (${created.events.join(', ')})\n`);
      io.stdout.write(`Signing secret (shown only now): ${created.secret}\n`);
    });

  webhooks
    .command('list')
    .description('List the endpoints, with whether each is enabled')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const { items } = await withContext(io, (ctx) => listWebhooks(ctx, cliActor()));
      if (opts.json) {
        printJson(io, items);
        return;
      }
      if (items.length === 0) io.stdout.write('No webhooks.\n');
      for (const item of items) {
        const state = item.enabled ? 'enabled' : `disabled: ${printable(item.disabledReason ?? '')}`;
        io.stdout.write(`${item.id}\t${printable(item.url)}\t${item.events.join(',')}\t${state}\n`);
      }
    });

  webhooks
    .command('delete')
    .description('Delete an endpoint and its delivery log')
    .argument('<id>', 'the webhook id (pacer webhooks list)')
    .option('--json', 'machine-readable output')
    .action(async (idText: string, opts: { json?: boolean }) => {
      const id = parseWebhookId(idText);
      await withContext(io, (ctx) => deleteWebhook(ctx, cliActor(), id));
      if (opts.json) printJson(io, { deleted: id });
      else io.stdout.write(`Deleted webhook ${id}\n`);
    });
};

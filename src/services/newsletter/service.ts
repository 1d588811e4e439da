import * as z from 'zod';
import { MailchimpError } from '@integrations/mailchimp/client.js';
import { text } from '@shared/schemas/text.js';
import type { PushResult } from '@shared/schemas/newsletter.js';
import type { AppContext } from '../context.js';
import { CONTACT_OWNER_TYPES } from '@shared/record-types.js';
import { mailchimpClient } from '../integrations/clients.js';
import { integrationErrorFrom } from '../integrations/errors.js';
import { upsertAudienceMember } from '../integrations/service.js';
import { parseInput } from '../validate.js';
import { contactsWithEmail } from './queries.js';

export const PushOptionsSchema = z
  .object({
    audienceId: text('An audience id is required')
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a valid audience id'),
    ownerType: z.enum(CONTACT_OWNER_TYPES, { error: `Owner type must be one of: ${CONTACT_OWNER_TYPES.join(', ')}` }).optional(),
    tag: text().trim().min(1, 'The tag must not be empty').optional(),
    dryRun: z.boolean().optional(),
  })
  .strict();

interface PushMember {
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  tags: string[];
}

/** Contacts become one member per address (case-insensitive); tags of all contacts with that address are merged. */
function membersFrom(contacts: Awaited<ReturnType<typeof contactsWithEmail>>, tag?: string): PushMember[] {
  const byEmail = new Map<string, PushMember>();
  const wanted = tag?.toLowerCase();
  for (const contact of contacts) {
    if (wanted && !contact.mailchimpTags.some((t) => t.toLowerCase() === wanted)) continue;
    const key = contact.email.trim().toLowerCase();
    const member = byEmail.get(key);
    if (member) {
      for (const t of contact.mailchimpTags) if (!member.tags.includes(t)) member.tags.push(t);
      member.phone ??= contact.phone;
    } else {
      byEmail.set(key, {
        email: contact.email.trim(),
        firstName: contact.firstName,
        lastName: contact.lastName,
        phone: contact.phone,
        tags: [...contact.mailchimpTags],
      });
    }
  }
  return [...byEmail.values()];
}

const PUSH_BATCH_SIZE = 50;

const fatalStatus = (reason: unknown) => reason instanceof MailchimpError && [401, 403, 404].includes(reason.status ?? 0);

/**
 * Pushes contacts to an audience as upserts with their tags, a batch at a time (the client keeps at most 10
 * requests in flight). One member's failure is reported and the rest carry on.
 */
export async function pushContacts(
  ctx: AppContext,
  input: unknown,
  onProgress?: (done: number, total: number) => void,
  beforeBatch?: () => Promise<void>,
): Promise<PushResult> {
  const options = parseInput(PushOptionsSchema, input);
  const client = mailchimpClient(ctx);
  const members = membersFrom(await contactsWithEmail(ctx.db, options.ownerType), options.tag);
  const result: PushResult = {
    total: members.length,
    added: 0,
    updated: 0,
    unsubscribed: 0,
    failed: 0,
    errors: [],
    dryRun: Boolean(options.dryRun),
  };
  if (options.dryRun) return result;
  let done = 0;
  for (let start = 0; start < members.length; start += PUSH_BATCH_SIZE) {
    await beforeBatch?.();
    const batch = members.slice(start, start + PUSH_BATCH_SIZE);
    const outcomes = await Promise.allSettled(batch.map((member) => upsertAudienceMember(client, options.audienceId, member)));
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled')
        result[outcome.value === 'added' ? 'added' : outcome.value === 'updated' ? 'updated' : 'unsubscribed']++;
      else {
        result.failed++;
        const error = integrationErrorFrom(outcome.reason);
        result.errors.push(`${batch[index]!.email}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    done += batch.length;
    onProgress?.(done, members.length);
    // An audience that does not exist, or a rejected key, fails every member alike: stop at the first batch.
    const first = outcomes[0];
    if (start === 0 && first?.status === 'rejected' && outcomes.every((o) => o.status === 'rejected' && fatalStatus(o.reason))) {
      throw integrationErrorFrom(first.reason);
    }
  }
  ctx.log.info({ audienceId: options.audienceId, ...result, errors: result.errors.length }, 'newsletter push finished');
  return result;
}

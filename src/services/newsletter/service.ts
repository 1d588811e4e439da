import * as z from 'zod';
import { MailchimpError, type MailchimpClient } from '@integrations/mailchimp/client.js';
import { text } from '@shared/schemas/text.js';
import { audienceId } from '@shared/schemas/integrations.js';
import type { PushResult } from '@shared/schemas/newsletter.js';
import { recordActivityEvents } from '../activity/log.js';
import type { Actor, AppContext } from '../context.js';
import { CONTACT_OWNER_TYPES } from '@shared/record-types.js';
import { mailchimpClient } from '../integrations/clients.js';
import { integrationErrorFrom } from '../integrations/errors.js';
import { upsertAudienceMember, type MemberOutcome } from '../integrations/service.js';
import { parseInput } from '../validate.js';
import { contactsWithEmail, type ContactForNewsletter } from './queries.js';

export const PushOptionsSchema = z
  .object({
    audienceId,
    ownerType: z.enum(CONTACT_OWNER_TYPES, { error: `Owner type must be one of: ${CONTACT_OWNER_TYPES.join(', ')}` }).optional(),
    tag: text().trim().min(1, 'The tag must not be empty').optional(),
    dryRun: z.boolean().optional(),
  })
  .strict();

/** One audience member made of one or more contacts sharing an address. */
interface PushMember {
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  tags: string[];
  /** The contacts this member was made of. */
  contactIds: number[];
}

/** Contacts become one member per address (case-insensitive); tags of all contacts with that address are merged. */
export function membersFrom(contacts: readonly ContactForNewsletter[], tag?: string): PushMember[] {
  const byEmail = new Map<string, PushMember>();
  const wanted = tag?.toLowerCase();
  for (const contact of contacts) {
    if (wanted && !contact.mailchimpTags.some((t) => t.toLowerCase() === wanted)) continue;
    const key = contact.email.trim().toLowerCase();
    const member = byEmail.get(key);
    if (member) {
      for (const t of contact.mailchimpTags) if (!member.tags.includes(t)) member.tags.push(t);
      member.phone ??= contact.phone;
      member.contactIds.push(contact.id);
    } else {
      byEmail.set(key, {
        email: contact.email.trim(),
        firstName: contact.firstName,
        lastName: contact.lastName,
        phone: contact.phone,
        tags: [...contact.mailchimpTags],
        contactIds: [contact.id],
      });
    }
  }
  return [...byEmail.values()];
}

const PUSH_BATCH_SIZE = 50;

const fatalStatus = (reason: unknown) => reason instanceof MailchimpError && [401, 403, 404].includes(reason.status ?? 0);

/**
 * Upserts members into an audience a batch at a time (the client keeps at most 10 requests in flight), never
 * re-subscribing an unsubscribed address. One member's failure is its outcome and the rest carry on; an audience
 * that does not exist, or a rejected key, fails every member of the first batch alike and is thrown instead.
 */
export async function upsertMembers(
  client: MailchimpClient,
  audienceId: string,
  members: readonly PushMember[],
  hooks: { beforeBatch?: () => Promise<void>; onProgress?: (done: number, total: number) => void } = {},
): Promise<Array<PromiseSettledResult<MemberOutcome>>> {
  const outcomes: Array<PromiseSettledResult<MemberOutcome>> = [];
  for (let start = 0; start < members.length; start += PUSH_BATCH_SIZE) {
    await hooks.beforeBatch?.();
    const batch = members.slice(start, start + PUSH_BATCH_SIZE);
    const settled = await Promise.allSettled(batch.map((member) => upsertAudienceMember(client, audienceId, member)));
    const first = settled[0];
    if (start === 0 && first?.status === 'rejected' && settled.every((o) => o.status === 'rejected' && fatalStatus(o.reason))) {
      throw integrationErrorFrom(first.reason);
    }
    outcomes.push(...settled);
    hooks.onProgress?.(outcomes.length, members.length);
  }
  return outcomes;
}

/** Why Mailchimp refused a member, as readable text. */
export function failureMessage(reason: unknown): string {
  const error = integrationErrorFrom(reason);
  return error instanceof Error ? error.message : String(error);
}

/** A contact as a push's timeline entries name it. */
interface PushedContact {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  entityType: string;
  entityId: number;
}

/**
 * Each contact of the members Mailchimp took (an unsubscribed address is not pushed) shows the push on its own
 * timeline and its record's (docs/decisions/0106): the same entries from the contacts' bulk action and the
 * newsletter push.
 */
export async function recordPushes(
  ctx: AppContext,
  actor: Actor,
  audienceId: string,
  contacts: readonly PushedContact[],
  members: readonly PushMember[],
  outcomes: ReadonlyArray<PromiseSettledResult<MemberOutcome>>,
): Promise<void> {
  const pushed = new Set(
    members.flatMap((member, index) => {
      const outcome = outcomes[index];
      return outcome?.status === 'fulfilled' && outcome.value !== 'unsubscribed' ? member.contactIds : [];
    }),
  );
  await recordActivityEvents(
    ctx.db,
    ctx,
    actor,
    contacts
      .filter((contact) => pushed.has(contact.id))
      .flatMap((contact) => {
        const summary = `Pushed ${`${contact.firstName} ${contact.lastName}`.trim()} (${contact.email}) to Mailchimp audience ${audienceId}`;
        return [
          { kind: 'mailchimp' as const, ownerType: 'contact', ownerId: contact.id, summary },
          { kind: 'mailchimp' as const, ownerType: contact.entityType, ownerId: contact.entityId, summary },
        ];
      }),
  );
}

/** Pushes contacts (all, or of one owner type or tag) to an audience as upserts with their tags. */
export async function pushContacts(
  ctx: AppContext,
  actor: Actor,
  input: unknown,
  onProgress?: (done: number, total: number) => void,
  beforeBatch?: () => Promise<void>,
): Promise<PushResult> {
  const options = parseInput(PushOptionsSchema, input);
  const client = mailchimpClient(ctx);
  const contacts = await contactsWithEmail(ctx.db, options.ownerType);
  const members = membersFrom(contacts, options.tag);
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
  const outcomes = await upsertMembers(client, options.audienceId, members, { beforeBatch, onProgress });
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled')
      result[outcome.value === 'added' ? 'added' : outcome.value === 'updated' ? 'updated' : 'unsubscribed']++;
    else {
      result.failed++;
      result.errors.push(`${members[index]!.email}: ${failureMessage(outcome.reason)}`);
    }
  });
  await recordPushes(ctx, actor, options.audienceId, contacts, members, outcomes);
  ctx.log.info({ audienceId: options.audienceId, ...result, errors: result.errors.length }, 'newsletter push finished');
  return result;
}

import * as z from 'zod';
import { UpstreamError } from '@integrations/http.js';
import type { MailchimpClient } from '@integrations/mailchimp/client.js';
import { text } from '@shared/schemas/text.js';
import type { Actor, AppContext } from '../context.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import { mailchimpClient, wordpressClient } from './clients.js';
import { IntegrationError, integrationErrorFrom } from './errors.js';
import type { MailchimpAccount, MailchimpAudience, WpSiteInfo } from '@shared/schemas/integrations.js';

export interface ConnectionResult {
  success: boolean;
  message: string;
}

/** A connection test reports a failure as its result ({success:false}); only missing settings are an error. */
async function asTestResult<T>(work: () => Promise<T>, describe: (value: T) => ConnectionResult & Record<string, unknown>) {
  try {
    return describe(await work());
  } catch (error) {
    if (error instanceof UpstreamError) return { success: false, message: error.message };
    throw error;
  }
}

export async function testWordPress(ctx: AppContext): Promise<ConnectionResult> {
  const client = wordpressClient(ctx);
  return asTestResult(
    () => client.testConnection(),
    ({ site, user }) => ({ success: true, message: `Connected to ${site.name || client.siteUrl} as ${user}` }),
  );
}

export async function wordpressSiteInfo(ctx: AppContext): Promise<WpSiteInfo> {
  const client = wordpressClient(ctx);
  try {
    return await client.siteInfo();
  } catch (error) {
    throw integrationErrorFrom(error);
  }
}

export async function testMailchimp(ctx: AppContext): Promise<ConnectionResult & { data?: MailchimpAccount }> {
  const client = mailchimpClient(ctx);
  return asTestResult(
    () => client.account(),
    (account) => ({ success: true, message: `Connected to Mailchimp account ${account.account_name}`, data: account }),
  );
}

export async function listAudiences(ctx: AppContext): Promise<MailchimpAudience[]> {
  const client = mailchimpClient(ctx);
  try {
    return await client.audiences();
  } catch (error) {
    throw integrationErrorFrom(error);
  }
}

const optionalText = (max: number) =>
  text('Must be text')
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => v || null);

export const AddMemberSchema = z
  .object({
    email: text('Please select an audience and provide an email address')
      .trim()
      .min(1, 'Please select an audience and provide an email address')
      .pipe(z.email({ error: 'Enter a valid email address' })),
    firstName: optionalText(100),
    lastName: optionalText(100),
    phone: optionalText(50),
    tags: z
      .array(text('Tags must be text').trim().max(100, 'A tag is at most 100 characters'), { error: 'Tags must be a list' })
      .max(50, 'At most 50 tags')
      .optional()
      .transform((tags) => [...new Set((tags ?? []).filter(Boolean))]),
  })
  .strict();

export type MemberOutcome = 'added' | 'updated' | 'unsubscribed';

/**
 * Adds someone to an audience, or updates them if present: never re-subscribes someone who unsubscribed
 * (status_if_new only applies to new addresses), and adds the tags through the tags endpoint.
 */
export async function upsertAudienceMember(
  client: MailchimpClient,
  audienceId: string,
  member: { email: string; firstName?: string | null; lastName?: string | null; phone?: string | null; tags: readonly string[] },
): Promise<MemberOutcome> {
  const before = await client.findMember(audienceId, member.email);
  const after = await client.upsertMember(audienceId, member);
  await client.addTags(audienceId, member.email, member.tags);
  if (!before) return 'added';
  return after.status === 'unsubscribed' ? 'unsubscribed' : 'updated';
}

export async function addAudienceMember(
  ctx: AppContext,
  actor: Actor,
  audienceId: string,
  input: unknown,
): Promise<ConnectionResult & { outcome: MemberOutcome }> {
  requireRole(actor, 'staff');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(audienceId)) throw new IntegrationError(400, 'bad_request', 'Not a valid audience id');
  const member = parseInput(AddMemberSchema, input);
  const client = mailchimpClient(ctx);
  try {
    const outcome = await upsertAudienceMember(client, audienceId, member);
    const messages: Record<MemberOutcome, string> = {
      added: `${member.email} was added to the audience`,
      updated: `${member.email} was already in the audience; their details were updated`,
      unsubscribed: `${member.email} has unsubscribed from this audience; their details were updated but they were not re-subscribed`,
    };
    ctx.log.info({ audienceId, outcome }, 'mailchimp member upserted');
    return { success: true, message: messages[outcome], outcome };
  } catch (error) {
    throw integrationErrorFrom(error);
  }
}

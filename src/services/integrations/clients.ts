import { MailchimpClient } from '@integrations/mailchimp/client.js';
import { WordPressClient } from '@integrations/wordpress/client.js';
import type { AppContext } from '../context.js';
import { notConfigured } from './errors.js';

/** Built from the settings on every use, so a changed setting never needs a restart of a long-lived cache. */
export function wordpressClient(ctx: AppContext): WordPressClient {
  const settings = ctx.config.wordpress;
  if (!settings.url)
    throw notConfigured('The content website is not configured: set WORDPRESS_URL, WORDPRESS_USER and WORDPRESS_APP_PASSWORD');
  return new WordPressClient({
    siteUrl: settings.url,
    user: settings.user,
    appPassword: settings.appPassword,
    timeoutMs: ctx.config.httpTimeoutMs,
  });
}

export function mailchimpClient(ctx: AppContext): MailchimpClient {
  const settings = ctx.config.mailchimp;
  if (!settings.apiKey)
    throw notConfigured(
      'The email-marketing service is not configured: set MAILCHIMP_API_KEY (and MAILCHIMP_BASE_URL to override its address)',
    );
  try {
    return new MailchimpClient({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, timeoutMs: ctx.config.httpTimeoutMs });
  } catch (error) {
    throw notConfigured(error instanceof Error ? error.message : String(error));
  }
}

export function integrationSettings(ctx: AppContext) {
  return {
    wordpress: {
      configured: Boolean(ctx.config.wordpress.url),
      url: ctx.config.wordpress.url ?? null,
      credentials: Boolean(ctx.config.wordpress.user && ctx.config.wordpress.appPassword),
    },
    mailchimp: { configured: Boolean(ctx.config.mailchimp.apiKey) },
  };
}

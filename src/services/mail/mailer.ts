import type { AppContext } from '../context.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Whether mail can be sent: SMTP_URL and MAIL_FROM are both set. */
export const mailConfigured = (ctx: AppContext) => Boolean(ctx.config.mail.smtpUrl && ctx.config.mail.from);

/**
 * Sends one message through the configured SMTP server (nodemailer; smtps:// for TLS from the start, smtp:// for
 * STARTTLS when the server offers it). Throws when the server refuses or cannot be reached.
 */
export async function sendMail(ctx: AppContext, mail: Mail): Promise<void> {
  const { smtpUrl, from } = ctx.config.mail;
  if (!smtpUrl || !from) throw new Error('Mail is not configured (set SMTP_URL and MAIL_FROM)');
  // Loaded when mail is first sent: most servers never send any, and it would cost every start.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl);
  try {
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
  } finally {
    transport.close();
  }
}

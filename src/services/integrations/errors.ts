import { UpstreamError } from '@integrations/http.js';
import { MailchimpError } from '@integrations/mailchimp/client.js';
import type { ApiErrorBody } from '@shared/api-error.js';
import { AppError } from '../errors.js';

/**
 * An integration failure as the API answers it: the usual {message, code} plus `success: false` (and any
 * extra result fields, e.g. a sync's zero counts), so the page reads one shape whether a call worked or not.
 */
export class IntegrationError extends AppError {
  constructor(
    status: number,
    code: string,
    message: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(status, code, message);
    this.name = 'IntegrationError';
  }

  override toBody(): ApiErrorBody {
    const body: ApiErrorBody & Record<string, unknown> = { ...this.extra, success: false, message: this.message, code: this.code };
    return body;
  }
}

export const notConfigured = (message: string) => new IntegrationError(400, 'not_configured', message);

/** What a third-party failure means for our caller: their input (4xx), or the service being unusable (502/504). */
export function integrationErrorFrom(error: unknown, extra: Record<string, unknown> = {}): unknown {
  if (error instanceof MailchimpError) {
    const status = error.status ?? 502;
    if (status === 404) return new IntegrationError(404, 'not_found', `Mailchimp: ${error.message}`, extra);
    if (status === 400) return new IntegrationError(400, 'upstream_rejected', `Mailchimp: ${error.message}`, extra);
    return new IntegrationError(502, 'upstream_failed', `Mailchimp: ${error.message}`, extra);
  }
  if (error instanceof UpstreamError) {
    return new IntegrationError(
      error.failure === 'timeout' ? 504 : 502,
      error.failure === 'timeout' ? 'upstream_timeout' : 'upstream_failed',
      error.message,
      extra,
    );
  }
  return error;
}

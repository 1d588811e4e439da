/** The parts of a WordPress REST post object the sync reads (wp/v2 collection items). */
export interface WpPost {
  id: number;
  status?: string;
  slug?: string;
  link?: string;
  modified_gmt?: string;
  title?: { rendered?: string };
  meta?: Record<string, unknown> | unknown[];
  acf?: Record<string, unknown> | unknown[] | false;
}

/** WordPress's error shape: {code, message, data: {status}}. */
export interface WpErrorBody {
  code?: string;
  message?: string;
  data?: { status?: number };
}

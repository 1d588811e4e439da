/**
 * Links built from stored data. Only http(s) URLs become links (a stored "javascript:" URL must never be
 * clickable); a bare host such as "example.org" is taken as https.
 */
export function safeHref(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text.replace(/^\/+/, '')}`;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

const cleanHandle = (handle: string | null | undefined) => handle?.trim().replace(/^@+/, '') || null;

/** '@runner' for display; handles are stored without the @ (spec point 3). */
export function atHandle(handle: string | null | undefined): string | null {
  const clean = cleanHandle(handle);
  return clean ? `@${clean}` : null;
}

export const instagramProfile = (handle: string | null | undefined) => {
  const clean = cleanHandle(handle);
  return clean ? `https://www.instagram.com/${encodeURIComponent(clean)}` : null;
};

export const tiktokProfile = (handle: string | null | undefined) => {
  const clean = cleanHandle(handle);
  return clean ? `https://www.tiktok.com/@${encodeURIComponent(clean)}` : null;
};

/** Facebook handles may be a page name or a full URL already. */
export const facebookProfile = (handle: string | null | undefined) => {
  const clean = cleanHandle(handle);
  if (!clean) return null;
  if (/^https?:\/\//i.test(clean) || /^(www\.)?facebook\.com\//i.test(clean)) return safeHref(clean);
  return `https://www.facebook.com/${encodeURIComponent(clean)}`;
};

/** Edit in the content site's admin (spec point 2), when the admin URL is configured. */
export function wordpressAdminEditUrl(adminUrl: string | null, postId: number | null): string | null {
  if (!adminUrl || postId === null) return null;
  return `${adminUrl.replace(/\/+$/, '')}/wp-admin/post.php?post=${postId}&action=edit`;
}

export const mailtoHref = (email: string | null | undefined) => (email?.trim() ? `mailto:${email.trim()}` : null);
export const telHref = (phone: string | null | undefined) => (phone?.trim() ? `tel:${phone.trim().replace(/[^\d+]/g, '')}` : null);

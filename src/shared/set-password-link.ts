/**
 * The page a one-time set-password link opens (issue 13). The token in its path is the proof, so the page is open
 * to anyone who has the link, signed in or not.
 */
export function setPasswordPath(token: string): string {
  return `/set-password/${token}`;
}

const SET_PASSWORD_PATH = /^\/set-password\/([^/]+)\/?$/;

/** The token of a set-password page's path; null for any other path. Tokens are base64url: the segment is the token. */
export function setPasswordTokenOf(pathname: string): string | null {
  return SET_PASSWORD_PATH.exec(pathname)?.[1] ?? null;
}

/** Upload rules (spec points 5 and 9), shared by the server and the Upload Files dialog. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 20;
const MAX_ORIGINAL_NAME_LENGTH = 255;

/** What the bytes may be: file-type's detected extension → the type we store and serve. */
export const ALLOWED_UPLOAD_TYPES: Readonly<Record<string, { mime: string; category: 'image' | 'video' }>> = {
  jpg: { mime: 'image/jpeg', category: 'image' },
  png: { mime: 'image/png', category: 'image' },
  gif: { mime: 'image/gif', category: 'image' },
  mp4: { mime: 'video/mp4', category: 'video' },
  mov: { mime: 'video/quicktime', category: 'video' },
  avi: { mime: 'video/x-msvideo', category: 'video' },
};

/** What the browser's picker offers (spec point 2: images and video). */
export const UPLOAD_ACCEPT = 'image/jpeg,image/png,image/gif,video/mp4,video/quicktime,video/x-msvideo,.jpg,.jpeg,.png,.gif,.mp4,.mov,.avi';

export const uploadMessages = {
  unsupported: (name: string) => `File ${name} is not a supported format`,
  tooLarge: (name: string) => `File ${name} is too large (max 10MB)`,
  none: 'Please select at least one file',
} as const;

/**
 * The name the user gave a file, kept only as metadata: no directories, no control characters (NUL included),
 * and at most 255 characters with the extension kept.
 */
export function sanitiseOriginalName(name: string): string {
  const base = name
    .split(/[/\\]/)
    .pop()!
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is being removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  const cleaned = base.replace(/^\.+/, '').trim() || 'file';
  const chars = [...cleaned];
  if (chars.length <= MAX_ORIGINAL_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 ? [...cleaned.slice(dot)] : [];
  const keepExt = ext.length > 0 && ext.length <= 16 ? ext : [];
  return chars.slice(0, MAX_ORIGINAL_NAME_LENGTH - keepExt.length).join('') + keepExt.join('');
}

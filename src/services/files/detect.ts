import { ALLOWED_UPLOAD_TYPES } from '@shared/schemas/files.js';

export interface DetectedType {
  extension: string;
  mime: string;
  category: 'image' | 'video';
}

/**
 * The type of a received file, decided only by its bytes: the name and the browser's content type are the
 * sender's word and prove nothing (security checklist item 13). Undefined when it is not an allowed type.
 */
export async function detectAllowedType(localPath: string): Promise<DetectedType | undefined> {
  // Loaded with the first upload: an ES module with dependencies of its own, 40–60 ms of a cold start otherwise.
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(localPath);
  const allowed = detected ? ALLOWED_UPLOAD_TYPES[detected.ext] : undefined;
  return detected && allowed ? { extension: detected.ext, mime: allowed.mime, category: allowed.category } : undefined;
}

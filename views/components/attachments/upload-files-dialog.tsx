import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { RecordType } from '@shared/record-types.js';
import { HttpError, messageOf } from '@shared/api-error.js';
import { MAX_FILE_BYTES, UPLOAD_ACCEPT, uploadMessages } from '@shared/schemas/files.js';
import { Button } from '../ui/primitives.js';
import { toast } from '../ui/toast.js';
import type { StoredFile } from '@shared/schemas/attachments.js';
import { fileSizeText } from './files-card.js';

/** Multipart POST /api/upload (spec point 7); a non-OK answer raises an HttpError like every other call. */
async function uploadFiles(ownerType: RecordType, ownerId: number, files: readonly File[]): Promise<{ files: StoredFile[] }> {
  const form = new FormData();
  form.append('entityType', ownerType);
  form.append('entityId', String(ownerId));
  for (const file of files) form.append('files', file, file.name);
  const response = await fetch('/api/upload', {
    method: 'POST',
    body: form,
    credentials: 'include',
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new HttpError(response.status, await response.text(), response.statusText);
  return (await response.json()) as { files: StoredFile[] };
}

/** The Upload Files dialog: pick several files, add to and remove from the selection, then upload them all. */
export function UploadFilesDialog({
  ownerType,
  ownerId,
  initiallyOpen,
}: {
  ownerType: RecordType;
  ownerId: number;
  /** Asked for before this dialog had loaded: it opens at once. */
  initiallyOpen: boolean;
}) {
  const revalidator = useRevalidator();
  const [open, setOpen] = useState(initiallyOpen);
  const [selected, setSelected] = useState<File[]>([]);
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const add = (files: FileList | null) => {
    if (!files?.length) return;
    setSelected((current) => [...current, ...Array.from(files)]);
    // Cleared so the same file can be picked again after removing it.
    if (input.current) input.current.value = '';
  };

  async function upload() {
    if (selected.length === 0) {
      toast({ title: 'Error', description: uploadMessages.none, variant: 'destructive' });
      return;
    }
    const tooLarge = selected.find((file) => file.size > MAX_FILE_BYTES);
    if (tooLarge) {
      toast({ title: 'Upload failed', description: uploadMessages.tooLarge(tooLarge.name), variant: 'destructive' });
      return;
    }
    setPending(true);
    try {
      await uploadFiles(ownerType, ownerId, selected);
    } catch (error) {
      toast({ title: 'Upload failed', description: messageOf(error, 'Failed to upload files'), variant: 'destructive' });
      setPending(false);
      return;
    }
    toast({ title: 'Files uploaded successfully' });
    setPending(false);
    setSelected([]);
    setOpen(false);
    await revalidator.revalidate();
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <Dialog.Trigger asChild>
        <Button>Upload Files</Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog attachments-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Upload Files</Dialog.Title>
          <p className="muted">Images (JPEG, PNG, GIF) and videos (MP4, MOV, AVI), up to 10MB each.</p>
          <div className="field">
            <label className="label" htmlFor="attachments-file-input">
              Choose files
            </label>
            <input
              id="attachments-file-input"
              ref={input}
              type="file"
              multiple
              accept={UPLOAD_ACCEPT}
              onChange={(event) => add(event.target.files)}
              disabled={pending}
            />
          </div>
          {selected.length > 0 && (
            <ul className="attachments-list" aria-label="Selected files">
              {selected.map((file, index) => (
                <li key={`${index}-${file.name}`} className="attachments-row">
                  <span className="attachments-contact-main">{file.name}</span>
                  <span className="muted">{fileSizeText(file.size)}</span>
                  <Button
                    variant="ghost"
                    className="btn-sm"
                    aria-label={`Remove ${file.name}`}
                    disabled={pending}
                    onClick={() => setSelected((current) => current.filter((_, i) => i !== index))}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <Button variant="outline" disabled={pending}>
                Cancel
              </Button>
            </Dialog.Close>
            <Button onClick={() => void upload()} disabled={pending}>
              {pending ? 'Uploading...' : selected.length > 1 ? `Upload ${selected.length} Files` : 'Upload'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

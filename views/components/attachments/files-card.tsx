import { useCanWrite } from '@views/hooks/use-session.js';
import { useState } from 'react';
import type { RecordType } from '@shared/record-types.js';
import { deleteFields } from '../records/delete-fields.js';
import { ConfirmDeleteButton, useDeleteRecord } from '../records/delete-dialog.js';
import { Button, Card, CardHeader } from '../ui/primitives.js';
import type { StoredFile } from '@shared/schemas/attachments.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

/** Sizes in the same words on server and browser (no locale involved, so no hydration difference). */
export function fileSizeText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const loadUploadDialog = () => import('./upload-files-dialog.js');

export function FilesCard({ ownerType, ownerId, files }: { ownerType: RecordType; ownerId: number; files: StoredFile[] }) {
  const images = files.filter((file) => file.fileCategory === 'image');
  const others = files.filter((file) => file.fileCategory !== 'image');
  // Posts the detail page's `delete-file` intent; the page's action deletes and its loader reads the list again.
  const deleteFile = useDeleteRecord('delete-file');
  const canWrite = useCanWrite();
  // The upload dialog loads after hydration; a click before that opens it once it has.
  const upload = useLoadedAfterHydration(loadUploadDialog);
  const [uploadAsked, setUploadAsked] = useState(false);

  const actions = (file: StoredFile) => (
    <div className="card-actions">
      <a
        className="btn btn-outline btn-sm"
        href={`${file.url}?download=1`}
        download={file.originalName}
        aria-label={`Download ${file.originalName}`}
      >
        Download
      </a>
      <ConfirmDeleteButton
        small
        ariaLabel={`Delete ${file.originalName}`}
        menuFor={file.originalName}
        question={`Are you sure you want to delete ${file.originalName}?`}
        postFields={deleteFields(file.id, false, 'delete-file')}
        onConfirm={() => deleteFile(file.id)}
      />
    </div>
  );

  return (
    <Card className="attachments-card">
      <CardHeader
        title={`Files (${files.length})`}
        actions={
          canWrite &&
          (upload ? (
            <upload.UploadFilesDialog ownerType={ownerType} ownerId={ownerId} initiallyOpen={uploadAsked} />
          ) : (
            <Button onClick={() => setUploadAsked(true)}>Upload Files</Button>
          ))
        }
      />
      {files.length === 0 && <p className="muted">No files uploaded yet</p>}
      {images.length > 0 && (
        <ul className="attachments-thumbs" aria-label="Images">
          {images.map((file) => (
            <li key={file.id} className="attachments-thumb">
              <a href={file.url} target="_blank" rel="noopener">
                <img src={file.url} alt={file.originalName} loading="lazy" />
              </a>
              <span className="attachments-thumb-name" title={file.originalName}>
                {file.originalName}
              </span>
              {actions(file)}
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <ul className="attachments-list" aria-label="Videos and other files">
          {others.map((file) => (
            <li key={file.id} className="attachments-row">
              <span aria-hidden="true" className="attachments-file-icon">
                {file.fileCategory === 'video' ? '🎬' : '📄'}
              </span>
              <a className="attachments-contact-main" href={file.url} target="_blank" rel="noopener">
                {file.originalName}
              </a>
              <span className="muted">{fileSizeText(file.fileSize)}</span>
              {actions(file)}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Wire shapes of the Backups panel (settings, admins): the archives in BACKUP_DIR, newest first. */
export interface BackupItem {
  name: string;
  bytes: number;
  /** When the archive was written (its file's time), ISO-8601 UTC. */
  createdAt: string;
}

export interface BackupListing {
  items: BackupItem[];
  /** BACKUP_SCHEDULE, or null when backups are taken by hand only. */
  schedule: string | null;
  /** BACKUP_KEEP: how many archives the scheduled job and "Back up now" keep. */
  keep: number;
}

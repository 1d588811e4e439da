/** The history of a record, contact, payment, file or user (issue 13), as the API answers it and the History tab reads it. */
export type HistoryAction = 'create' | 'update' | 'delete';
export type HistoryActorKind = 'user' | 'cli' | 'import' | 'sync' | 'token';

interface FieldChange {
  from: unknown;
  to: unknown;
}

export interface HistoryEntry {
  id: number;
  at: string;
  action: HistoryAction;
  actor: { kind: HistoryActorKind; label: string; runId: string | null };
  /** Update: the changed fields. Create: the values. Delete: the snapshot (the record and what it held). */
  changes: Record<string, unknown>;
}

export interface HistoryPage {
  items: HistoryEntry[];
  total: number;
}

export const HISTORY_PAGE_SIZE = 20;

const ACRONYMS: Record<string, string> = { url: 'URL', id: 'ID', wordpress: 'WordPress', km: 'km' };

/** "invoiceStatus" → "Invoice status", "websiteUrl" → "Website URL". */
function labelFromName(field: string): string {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((word) => ACRONYMS[word.toLowerCase()] ?? word.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : 'empty';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const WHO: Record<HistoryActorKind, (label: string) => string> = {
  user: (label) => label,
  cli: (label) => `The command line (${label})`,
  import: () => 'Import',
  sync: () => 'Sync',
  // The label says "API token <name>".
  token: (label) => label,
};

/** Who an entry names, as its lines begin: "Anna", "Import", "The command line (ops)". */
export const historyActorText = (actor: HistoryEntry['actor']): string => WHO[actor.kind](actor.label);

/**
 * The readable lines of one entry: "Anna changed Invoice status from pending to paid"; an import or a sync, whose
 * values may be long, says only which fields it changed ("Sync changed Website URL"). `labels`: the field labels
 * the record's definition sets (src/shared/records/ `historyLabelsOf`); other fields are worded from their name.
 */
export function describeEntry(entry: HistoryEntry, noun: string, labels: Readonly<Record<string, string>> = {}): string[] {
  const fieldLabel = (field: string) => labels[field] ?? labelFromName(field);
  const who = WHO[entry.actor.kind](entry.actor.label);
  if (entry.action === 'create') return [`${who} created this ${noun}`];
  // A merge (docs/decisions/0108): the merged record's last entry, and the kept record's, name each other.
  const merge = (key: string) => entry.changes[key] as { id: number; name: string } | undefined;
  if (entry.action === 'delete')
    return [merge('mergedInto') ? `${who} merged this ${noun} into ${merge('mergedInto')!.name}` : `${who} deleted this ${noun}`];
  if (merge('mergeUndone')) return [`${who} undid the merge of ${merge('mergeUndone')!.name} into this ${noun}`];
  const merged = merge('merged');
  const fields = Object.entries(entry.changes).filter(([field]) => field !== 'merged');
  if (merged)
    return [
      `${who} merged ${merged.name} into this ${noun}`,
      ...fields.map(([field, change]) => {
        const { from, to } = (change ?? {}) as FieldChange;
        return `${who} changed ${fieldLabel(field)} from ${valueText(from)} to ${valueText(to)}`;
      }),
    ];
  if (entry.actor.kind === 'import' || entry.actor.kind === 'sync')
    return [`${who} changed ${fields.map(([field]) => fieldLabel(field)).join(', ') || 'nothing'}`];
  return fields.map(([field, change]) => {
    const { from, to } = (change ?? {}) as FieldChange;
    return `${who} changed ${fieldLabel(field)} from ${valueText(from)} to ${valueText(to)}`;
  });
}

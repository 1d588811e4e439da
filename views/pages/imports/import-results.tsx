import { useEffect, useRef } from 'react';
import type { ImportKind } from '@shared/imports/rules.js';
import type { BrandsImportResult, EventsImportResult } from '@shared/imports/results.js';
import { Card, CardHeader } from '@views/components/ui/primitives.js';

type ImportResult = EventsImportResult | BrandsImportResult;

interface ResultView {
  tiles: Array<{ key: string; label: string; value: (result: ImportResult) => number }>;
  describe: (result: ImportResult) => string;
  /** How many records and contacts the import wrote. */
  written: (result: ImportResult) => number;
}

/** How each import's result reads: its tiles and its toast text (the screen's, and the Jobs page's). */
const RESULT_VIEWS: Record<ImportKind, ResultView> = {
  events: {
    tiles: [
      // The spec's toast says "Updated 0 events, created N contacts" word for word; the tiles name what each count is.
      { key: 'updated', label: 'Events Updated', value: (r) => (r as EventsImportResult).updated },
      { key: 'created', label: 'Contacts Created', value: (r) => (r as EventsImportResult).created },
      { key: 'skipped', label: 'Skipped', value: (r) => r.skipped },
      { key: 'errors', label: 'Errors', value: (r) => r.errors.length },
    ],
    describe: (r) =>
      `Updated ${(r as EventsImportResult).updated.toLocaleString('en')} events, created ${(r as EventsImportResult).created.toLocaleString('en')} contacts`,
    written: (r) => (r as EventsImportResult).updated + (r as EventsImportResult).created,
  },
  brands: {
    tiles: [
      { key: 'brandsCreated', label: 'Brands Created', value: (r) => (r as BrandsImportResult).brandsCreated },
      { key: 'contactsCreated', label: 'Contacts Created', value: (r) => (r as BrandsImportResult).contactsCreated },
      { key: 'skipped', label: 'Skipped', value: (r) => r.skipped },
      { key: 'errors', label: 'Errors', value: (r) => r.errors.length },
    ],
    describe: (r) =>
      `Created ${(r as BrandsImportResult).brandsCreated.toLocaleString('en')} brands and ${(r as BrandsImportResult).contactsCreated.toLocaleString('en')} contacts`,
    written: (r) => (r as BrandsImportResult).brandsCreated + (r as BrandsImportResult).contactsCreated,
  },
};

/** The import's toast text: 'Updated {n} events, created {n} contacts' or 'Created {n} brands and {n} contacts'. */
export const describeImport = (kind: ImportKind, result: ImportResult) => RESULT_VIEWS[kind].describe(result);

/**
 * Whether every row failed: the import wrote nothing and reported errors. Such a run finished as a job, but it is no
 * "Import completed": the screens say 'No rows imported' instead.
 */
export const importedNothing = (kind: ImportKind, result: ImportResult) =>
  result.errors.length > 0 && RESULT_VIEWS[kind].written(result) === 0;

/** 'No rows imported: 3 errors'. */
export const nothingImportedText = (result: ImportResult) =>
  `No rows imported: ${result.errors.length.toLocaleString('en')} ${result.errors.length === 1 ? 'error' : 'errors'}`;

/** A finished import's tiles and errors, as its screen shows them (the Jobs page shows the same). */
export function ImportResults({ kind, result }: { kind: ImportKind; result: ImportResult }) {
  // Brought into view when it appears: on a long page the answer would otherwise sit below the fold.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [result]);
  return (
    <div ref={ref} className="imports-results">
      <Card data-testid="import-results">
        <CardHeader title="Import Results" />
        <div className="imports-tiles">
          {RESULT_VIEWS[kind].tiles.map((tile) => {
            const value = tile.value(result);
            // A zero is no warning: only a count above zero takes the tile's colour (the errors' red).
            return (
              <div
                key={tile.key}
                className={`imports-tile imports-tile-${tile.key}${value === 0 ? ' imports-tile-zero' : ''}`}
                data-testid={`import-result-${tile.key}`}
              >
                <span className="imports-tile-value">{value.toLocaleString('en')}</span>
                <span className="imports-tile-label">{tile.label}</span>
              </div>
            );
          })}
        </div>
        {result.errors.length > 0 && (
          <div className="imports-errors">
            <h3>Errors</h3>
            <ul data-testid="import-errors">
              {result.errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          </div>
        )}
      </Card>
    </div>
  );
}

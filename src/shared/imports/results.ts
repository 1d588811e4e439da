/** What POST /api/events/bulk-import and /api/brands/bulk-import answer (spec point 2). */
export interface EventsImportResult {
  updated: number;
  created: number;
  skipped: number;
  errors: string[];
}

export interface BrandsImportResult {
  brandsCreated: number;
  contactsCreated: number;
  skipped: number;
  errors: string[];
}

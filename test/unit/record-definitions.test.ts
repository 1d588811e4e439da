import { describe, expect, expectTypeOf, it } from 'vitest';
import { RECORD_TYPES } from '@shared/record-types.js';
import { defineRecord } from '@shared/records/define.js';
import {
  columnKindsOf,
  SORTS,
  cardFieldFacts,
  detailGroupFacts,
  tableColumnFacts,
  type RecordDef,
  duplicateKeys,
  fieldsForExport,
  fieldsForImport,
  recordDefinition,
  recordFields,
} from '@shared/records/index.js';
import { zodSchemaOf } from '@shared/records/zod.js';
import { ListQuerySchemas, RecordInputSchemas } from '@shared/schemas/records.js';

describe('record definitions (src/shared/records/)', () => {
  it.each(RECORD_TYPES)('%s: the form lists every field with a rule once, and only those (PUT replaces them all)', (type) => {
    const definition = recordDefinition(type);
    const inForm = definition.form.flatMap((section) => section.fields);
    const withRule = recordFields(definition)
      .filter((field) => field.rule)
      .map((field) => field.name);
    expect([...inForm].sort()).toEqual([...withRule].sort());
    expect(new Set(inForm).size).toBe(inForm.length);
    expect(Object.keys(RecordInputSchemas[type].shape)).toEqual(withRule);
  });

  it.each(RECORD_TYPES)('%s: every exported, searched or tabled field is stored or computed, and export headers are unique', (type) => {
    const definition: RecordDef = recordDefinition(type);
    const headers = fieldsForExport(definition).map((column) => column.header);
    expect(new Set(headers).size).toBe(headers.length);
    for (const name of [...definition.search.flat(), ...definition.export.filter((entry) => typeof entry === 'string')])
      expect(definition.fields[name]?.computed).toBeUndefined();
  });

  it('sorts each list by its definition: every sortable table column is a sort key the list API and menu take', () => {
    for (const type of RECORD_TYPES) {
      const definition: RecordDef = recordDefinition(type);
      const sortable = recordFields(definition)
        .filter((field) => field.table?.sort)
        .map((field) => field.name);
      const extra = type === 'event' ? ['upcoming'] : [];
      // SortKeyOf (the keys' literal type) is made of the fields with a `table.sort`: the runtime keys are the same.
      expect(new Set(Object.keys(SORTS[type])), type).toEqual(new Set(['newest', ...extra, ...sortable, 'updatedAt']));
      for (const column of tableColumnFacts(definition).filter((facts) => facts.sort)) {
        expect(SORTS[type], `${type}.${column.key}`).toHaveProperty(column.sort!, definition.fields[column.key]!.table!.sort);
        expect(ListQuerySchemas[type].parse({ sort: column.sort }).sort, `${type}.${column.key}`).toBe(column.sort);
      }
    }
    // The sort menu's order: the definition's `sorts` where the table's order is not the menu's.
    expect(Object.keys(SORTS.professional)).toEqual([
      'newest',
      'businessName',
      'professionType',
      'locationState',
      'subscriptionStatus',
      'totalPayments',
      'lastNewsletterInclusion',
      'updatedAt',
    ]);
    expect(SORTS.event).toEqual({
      newest: 'desc',
      upcoming: 'asc',
      eventName: 'asc',
      eventStartDate: 'asc',
      locationState: 'asc',
      featuredRace: 'desc',
      totalAdvertisingSpend: 'desc',
      wordpressLastSync: 'desc',
      updatedAt: 'desc',
    });
    // The keys keep their literal types (the list query's `sort` is typed by them).
    expectTypeOf<keyof typeof SORTS.influencer>().toEqualTypeOf<
      'newest' | 'name' | 'influencerType' | 'instagramHandle' | 'email' | 'updatedAt'
    >();
    expectTypeOf<keyof typeof SORTS.event>().toEqualTypeOf<
      | 'newest'
      | 'upcoming'
      | 'eventName'
      | 'eventStartDate'
      | 'locationState'
      | 'featuredRace'
      | 'totalAdvertisingSpend'
      | 'wordpressLastSync'
      | 'updatedAt'
    >();
  });

  it('answers the typed API the next features use: import columns, duplicate keys, column kinds, the zod schema', () => {
    const brand = recordDefinition('brand');
    expect(fieldsForImport(brand).map((column) => [column.field.name, column.header])).toEqual([['brandName', 'Brand']]);
    expect(fieldsForImport(recordDefinition('event')).map((column) => column.header)).toEqual(['website', 'event_id']);
    expect(duplicateKeys(brand)).toEqual(['brandName']);
    expect(columnKindsOf(brand)).toEqual({
      createdAt: 'timestamp',
      updatedAt: 'timestamp',
      createdBy: 'integer',
      lastCampaignEndDate: 'date',
      totalAdvertisingSpend: { kind: 'money', scale: 2 },
    });
    const schema = zodSchemaOf(brand);
    expect(schema.parse({ brandName: ' Hoka ' })).toMatchObject({ brandName: 'Hoka', paymentStatus: 'current', locationState: null });
    expect(schema.safeParse({ brandName: 'Hoka', other: 1 }).success).toBe(false);
  });

  it('refuses, at compile time, a layout naming a field the type lacks and a field without a label', () => {
    const ok = defineRecord({
      type: 'media',
      fields: { mediaName: { label: 'Media name', rule: { type: 'name', message: 'Media name is required' } } },
      form: [{ fields: ['mediaName'] }],
      detail: [],
      table: ['mediaName'],
      export: ['mediaName'],
      search: ['mediaName'],
    });
    expect(ok.type).toBe('media');
    defineRecord({
      type: 'media',
      fields: { mediaName: { label: 'Media name' } },
      // @ts-expect-error: 'mediaTitle' is not a field of this definition
      form: [{ fields: ['mediaTitle'] }],
      detail: [],
      table: [],
      export: [],
      search: [],
    });
    defineRecord({
      type: 'media',
      // @ts-expect-error: a field needs its label
      fields: { mediaName: { rule: { type: 'url' } } },
      form: [],
      detail: [],
      table: [],
      export: [],
      search: [],
    });
  });
});

describe('the table columns the list loaders hand their pages', () => {
  it('take each column header, sort key and value shape from the definition, in its order', () => {
    const brand = tableColumnFacts(recordDefinition('brand'));
    expect(brand.map((column) => column.key)).toEqual(recordDefinition('brand').table);
    expect(brand.find((column) => column.key === 'brandName')).toEqual({
      key: 'brandName',
      label: 'Name',
      sort: 'brandName',
      shape: 'text',
    });
    expect(brand.find((column) => column.key === 'totalAdvertisingSpend')).toMatchObject({ label: 'Advertising spend', shape: 'money' });
    expect(brand.find((column) => column.key === 'lastCampaignEndDate')).toMatchObject({ label: 'Last campaign end', shape: 'date' });
    const event = tableColumnFacts(recordDefinition('event'));
    expect(event.find((column) => column.key === 'runType')).toMatchObject({ label: 'Run type', shape: 'choices', labels: { '5k': '5K' } });
    expect(event.find((column) => column.key === 'runType')).not.toHaveProperty('sort');
    expect(event.find((column) => column.key === 'wordpressLastSync')).toMatchObject({ sort: 'wordpressLastSync', shape: 'timestamp' });
    expect(tableColumnFacts(recordDefinition('media')).find((column) => column.key === 'websiteUrl')).toMatchObject({ shape: 'url' });
    expect(tableColumnFacts(recordDefinition('professional')).find((column) => column.key === 'professionType')).toMatchObject({
      shape: 'choice',
      labels: expect.objectContaining({}),
    });
  });
});

describe('the detail groups the detail loaders hand their pages', () => {
  it("take each group's title and fields, under their detail labels, from the definition", () => {
    const [group] = detailGroupFacts(recordDefinition('media'));
    expect(group!.title).toBe('Media Information');
    expect(group!.fields.map((field) => [field.key, field.label, field.shape])).toEqual([
      ['mediaName', 'Name', 'text'],
      ['industry', 'Industry', 'text'],
      ['websiteUrl', 'Website', 'url'],
      ['instagramUrl', 'Instagram', 'url'],
      ['notes', 'Notes', 'multiline'],
    ]);
  });
});

describe('the card lines the list loaders hand their pages', () => {
  it("are the definition's plain card fields, in order, with their shapes", () => {
    expect(cardFieldFacts(recordDefinition('brand')).map((field) => [field.key, field.shape])).toEqual([
      ['industryCategory', 'text'],
      ['locationState', 'choice'],
    ]);
    expect(cardFieldFacts(recordDefinition('event'))).toEqual([]);
  });
});

describe("the synced types' WordPress mappings", () => {
  it('make the content model: the mapped fields in order, each read by its definition rule', async () => {
    const { CONTENT_MODEL } = await import('@integrations/wordpress/content-model.js');
    const { RUN_CLUB_FROM_WORDPRESS } = await import('@shared/records/wordpress.js');
    const runclubs = CONTENT_MODEL.runclubs;
    expect(runclubs).toMatchObject({
      restBase: 'run-clubs',
      idColumn: 'wordpressClubId',
      name: { column: 'clubName', type: 'text', max: 255 },
    });
    expect(runclubs.fields.map((field) => field.column)).toEqual(Object.keys(RUN_CLUB_FROM_WORDPRESS.fields));
    const field = (column: string) => runclubs.fields.find((spec) => spec.column === column);
    expect(field('foundedYear')).toEqual({ column: 'foundedYear', label: 'founded year', type: 'integer', min: 1800, max: 2100 });
    expect(field('clubEmail')).toMatchObject({ type: 'email' });
    expect(field('locationLng')).toMatchObject({ type: 'decimal', scale: 8, limit: 180 });
    expect(field('locationState')).toMatchObject({ type: 'enum', aliases: expect.objectContaining({ victoria: 'VIC' }) });
    expect(field('clubType')).toMatchObject({ type: 'enumList', otherColumn: 'clubTypeOther' });
    expect(CONTENT_MODEL.events.fields.find((spec) => spec.column === 'galleryImages')).toMatchObject({ type: 'list' });
  });
});

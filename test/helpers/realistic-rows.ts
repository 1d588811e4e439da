import type { Knex } from 'knex';
import { dialectOfDb } from '@db/knex.js';

/**
 * Realistic rows for every table a database has at whatever migration it stands (the upgrade test,
 * test/integrations/upgrade-from-every-migration.test.ts). Each table the repository knows gets rows written by hand,
 * as the app writes them (lists as JSON text, money as decimals, dates as YYYY-MM-DD, instants as UTC text); a value
 * whose column does not exist yet at that migration is left out. A column or table added later that this file does
 * not name gets a value made from its type (and, for a foreign key, the id of a row it refers to), so the filler
 * keeps working as migrations add columns and tables.
 */

type Row = Record<string, unknown>;

/** Tables of Knex's own bookkeeping: never filled, never compared. */
const KNEX_TABLES = ['knex_migrations', 'knex_migrations_lock'];

/**
 * Derived data: made from the other tables by the derived-data step after the last migration (ADR 0007), so not
 * written by hand here and never compared row by row (the upgrade test compares them with a fresh rebuild).
 */
export const DERIVED_TABLES = [
  'record_search_docs',
  'record_search_grams',
  'record_counts',
  'payment_totals',
  'derived_data_versions',
  // Duplicate keys and pairs (ADR 0108): rebuilt from the rows like the search index.
  'duplicate_keys',
  'duplicate_pairs',
];

interface ColumnFacts {
  type: string;
  maxLength: number | null;
  nullable: boolean;
}

interface ForeignKey {
  column: string;
  table: string;
}

/** The base tables of the database, Knex's own left out. */
export async function tablesOf(db: Knex): Promise<string[]> {
  if (dialectOfDb(db) === 'mysql') {
    const [rows] = (await db.raw(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = database() AND table_type = 'BASE TABLE'",
    )) as unknown as [Array<{ name: string }>];
    return rows.map((row) => row.name).filter((name) => !KNEX_TABLES.includes(name));
  }
  const rows = (await db('sqlite_master').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%').select('name')) as Array<{
    name: string;
  }>;
  return rows.map((row) => row.name).filter((name) => !KNEX_TABLES.includes(name));
}

export async function columnsOf(db: Knex, table: string): Promise<Map<string, ColumnFacts>> {
  const info = (await db(table).columnInfo()) as unknown as Record<
    string,
    { type: string; maxLength: number | string | null; nullable: boolean }
  >;
  return new Map(
    Object.entries(info).map(([name, facts]) => [
      name,
      { type: facts.type.toLowerCase(), maxLength: facts.maxLength === null ? null : Number(facts.maxLength), nullable: facts.nullable },
    ]),
  );
}

async function foreignKeysOf(db: Knex, table: string): Promise<ForeignKey[]> {
  if (dialectOfDb(db) === 'mysql') {
    const [rows] = (await db.raw(
      'SELECT column_name AS `column`, referenced_table_name AS `table` FROM information_schema.key_column_usage ' +
        'WHERE table_schema = database() AND table_name = ? AND referenced_table_name IS NOT NULL',
      [table],
    )) as unknown as [ForeignKey[]];
    return rows;
  }
  const rows = (await db.raw('SELECT "from" AS "column", "table" FROM pragma_foreign_key_list(?)', [table])) as ForeignKey[];
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// The rows written by hand. Every record carries one word found nowhere else (the search check looks it up).

const at = (day: string, time = '09:30:00.000') => `${day} ${time}`;
const list = (...items: string[]) => JSON.stringify(items);
const hash = (seed: string) => seed.repeat(64).slice(0, 64);

/** The word each record holds once, by table, in the order of its rows. */
export const SEARCH_WORDS: Record<string, string[]> = {
  events: ['quokka', 'wombat', 'platypus', 'echidna', 'bilby', 'numbat'],
  professionals: ['kookaburra', 'galah', 'lorikeet', 'currawong'],
  run_clubs: ['wallaby', 'bandicoot', 'dingo', 'potoroo'],
  brands: ['jacaranda', 'waratah', 'banksia', 'grevillea'],
  media: ['billabong', 'coolabah', 'jumbuck'],
  influencers: ['brolga', 'jabiru', 'cassowary'],
  contacts: ['yabby', 'barramundi', 'marron', 'gudgeon', 'bunyip', 'dugong', 'goanna', 'wobbegong'],
};
const word = (table: string, i: number) => SEARCH_WORDS[table]![i]!;
const capital = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/**
 * Run and track types as stored before migration 20261128130000 (slugs from the forms, WordPress's labels from the
 * sync), and the slug each becomes: written out by hand, so the upgrade test does not reuse the migration's rule.
 */
export const TYPE_SLUGS: Record<string, string> = {
  'Half Marathon': 'half-marathon',
  '10K': '10k',
  'Trail Running': 'trail-running',
  '5K': '5k',
  'Fun Run': 'fun-run',
  Road: 'road',
  Trail: 'trail',
  ' Trail ': 'trail',
  Cross_Country: 'cross-country',
};

type Builder = (ids: (table: string) => number[]) => Row[];

const audit = (ids: (table: string) => number[], i: number) => ({
  createdAt: at(`2026-0${(i % 8) + 1}-1${i}`),
  updatedAt: at(`2026-0${(i % 8) + 2}-2${i}`, '17:05:12.345'),
  createdBy: i % 3 === 2 ? null : ids('users')[i % 3],
});

const BUILDERS: Record<string, Builder> = {
  users: () =>
    [
      ['Ada', 'Admin', 'admin', 1, at('2026-11-20', '08:00:00.000')],
      ['Sam', 'Staff', 'staff', 1, at('2026-11-19')],
      ['Vic', 'Viewer', 'viewer', 0, null],
    ].map(([firstName, lastName, role, isActive, lastLogin], i) => ({
      email: `${String(firstName).toLowerCase()}@pacer.example`,
      passwordHash: `$2b$10$${hash(String(i + 1)).slice(0, 53)}`,
      firstName,
      lastName,
      createdAt: at('2026-01-0' + (i + 1)),
      lastLogin,
      isActive,
      sessionVersion: i,
      role,
    })),
  events: (ids) => {
    const runTypes = [
      list('Half Marathon', '10K'),
      list('marathon'),
      list(),
      null,
      list('Trail Running', 'half-marathon', 'Half Marathon'),
      list('5K', 'Fun Run'),
    ];
    const trackTypes = [list('Road'), list('road', 'trail'), null, list('Trail'), list(' Trail '), list()];
    return SEARCH_WORDS.events!.map((_, i) => ({
      eventName: `${capital(word('events', i))} Coast ${['Half', 'Marathon', 'Dash', 'Ultra', 'Trail Run', 'Fun Run'][i]}`,
      wordpressEventId: i < 3 ? 5100 + i : null,
      eventStartDate: `2027-0${i + 1}-1${i}`,
      eventEndDate: i === 3 ? `2027-04-14` : null,
      websiteUrl: `https://race${i}.example/entries`,
      locationState: ['NSW', 'VIC', 'QLD', 'WA', 'TAS', 'SA'][i],
      locationAddress: `${i + 12} Finish Line Rd`,
      locationLat: `-33.8${i}123456`,
      locationLng: `151.2${i}654321`,
      runType: runTypes[i],
      trackType: trackTypes[i],
      featuredRace: i % 2,
      entryCost: i === 0 ? '$60 – $95' : null,
      prizes: i === 1 ? 'Medals to the top three' : null,
      galleryImages: list(`uploads/events/${i}/start.jpg`, `uploads/events/${i}/finish.jpg`),
      lastNewsletterInclusion: i < 2 ? `2026-10-0${i + 1}` : null,
      newsletterInclusionNotes: i < 2 ? 'Lead story' : null,
      totalAdvertisingSpend: ['1234.50', '0.00', '99.99', '15000.00', '0.10', '7.05'][i],
      notes: `Course notes ${i}: “wet weather plan” ✓`,
      wordpressLastSync: i < 3 ? at('2026-11-18', '03:00:00.000') : null,
      wordpressUnpublishedAt: i === 2 ? at('2026-11-27') : null,
      ...audit(ids, i),
    }));
  },
  event_distances: (ids) =>
    [0, 0, 1, 4].map((owner, i) => ({
      eventId: ids('events')[owner],
      distanceKm: ['21.10', '10.00', '42.20', '50.50'][i],
      distanceStartDate: `2027-0${owner + 1}-1${owner}`,
      distanceStartTime: ['06:30', '07:15', '06:00', '05:45'][i],
      entryFee: ['95.00', '60.00', '150.00', null][i],
      participantsCount: [1200, 800, null, 90][i],
      gpxFilePath: i === 0 ? 'uploads/gpx/half.gpx' : null,
      stravaLink: i === 0 ? 'https://www.strava.com/routes/1' : null,
      elevationTitle: 'Rolling hills',
      medianTime: '1:52:10',
      lastTime: '3:01:44',
      prizes: list('1st: $500', '2nd: $250'),
      prizeDescription: 'Cash to the podium',
      recommendTitle: i === 1 ? 'Race-day shoe' : null,
      productUrl: i === 1 ? 'https://shop.example/shoe' : null,
      productImagePath: i === 1 ? 'uploads/products/shoe.png' : null,
      createdAt: at('2026-08-01'),
    })),
  professionals: (ids) => {
    const trackTypes = [list('Road', 'Trail'), list('Cross_Country', ' Trail '), list('track'), null];
    return SEARCH_WORDS.professionals!.map((_, i) => ({
      businessName: `${capital(word('professionals', i))} ${['Physio', 'Coaching', 'Podiatry', 'Nutrition'][i]}`,
      wordpressProfessionalId: i < 2 ? 7200 + i : null,
      professionType: ['physiotherapist', 'coach', 'podiatrist', 'other'][i],
      contactType: list('email', 'phone'),
      trackType: trackTypes[i],
      specializations: list('Injury rehab', 'Gait analysis'),
      credentials: i === 0 ? list('APA') : list(),
      deliveryMethods: list('in-person', 'online'),
      locationAddress: `${i + 3} Stride St`,
      locationLat: '-37.81360000',
      locationLng: '144.96310000',
      locationState: ['VIC', 'NSW', 'QLD', 'ACT'][i],
      websiteUrl: `https://pro${i}.example`,
      instagramUrl: i % 2 ? `https://instagram.com/pro${i}` : null,
      facebookUrl: null,
      subscriptionStatus: ['active', 'expired', 'active', 'cancelled'][i],
      subscriptionExpiryDate: `2027-0${i + 1}-01`,
      totalPayments: ['450.00', '0.00', '1200.25', '80.00'][i],
      paymentAlertFlag: i === 1 ? 1 : 0,
      lastNewsletterInclusion: i === 0 ? '2026-09-15' : null,
      newsletterInclusionNotes: null,
      notes: 'Referred by the club',
      wordpressLastSync: i < 2 ? at('2026-11-18', '03:10:00.000') : null,
      professionTypeOther: i === 3 ? 'Reiki Master' : null,
      wordpressUnpublishedAt: null,
      ...audit(ids, i),
    }));
  },
  run_clubs: (ids) => {
    const clubTypes = [list('trail', 'road'), list('road'), list('track', 'social'), list('other')];
    return SEARCH_WORDS.run_clubs!.map((_, i) => ({
      clubName: `${capital(word('run_clubs', i))} Runners`,
      wordpressClubId: i < 2 ? 9300 + i : null,
      locationAddress: `Park gate ${i + 1}`,
      locationLat: '-27.46980000',
      locationLng: '153.02510000',
      locationState: ['QLD', 'NSW', 'VIC', 'WA'][i],
      clubType: clubTypes[i],
      foundedYear: 2001 + i,
      membershipCount: [120, 45, 300, 12][i],
      meetingTimes: list('Tue 6pm', 'Sat 7am'),
      cost: i === 2 ? '$5 a run' : 'Free',
      averageAttendance: [40, 15, 90, 6][i],
      websiteUrl: `https://club${i}.example`,
      instagramUrl: `https://instagram.com/club${i}`,
      facebookUrl: null,
      founderInstagramUrl: null,
      clubEmail: `hello@club${i}.example`,
      isPayingMember: i % 2,
      paymentStatus: ['none', 'current', 'overdue', 'none'][i],
      totalPayments: ['0.00', '300.00', '150.50', '0.00'][i],
      extras: 'Coffee after',
      footnote: null,
      socialTitle: `Run with ${capital(word('run_clubs', i))}`,
      lastNewsletterInclusion: null,
      newsletterInclusionNotes: null,
      notes: 'Welcomes beginners',
      wordpressLastSync: null,
      clubTypeOther: i === 3 ? list('Parkrun') : null,
      wordpressUnpublishedAt: null,
      ...audit(ids, i),
    }));
  },
  run_club_schedules: (ids) =>
    [0, 0, 2].map((club, i) => ({
      clubId: ids('run_clubs')[club],
      title: ['Hill reps', 'Long run', 'Track session'][i],
      dayOfWeek: i === 2 ? null : ['Tuesday', 'Saturday'][i],
      specificDate: i === 2 ? '2027-02-03' : null,
      startTime: '06:00',
      endTime: '07:30',
      isRecurring: i === 2 ? 0 : 1,
      description: 'All paces',
      runStyle: 'Intervals',
      cost: 'Free',
      locationAddress: 'Oval',
      locationLat: '-27.46980000',
      locationLng: '153.02510000',
      createdAt: at('2026-07-07'),
    })),
  brands: (ids) =>
    SEARCH_WORDS.brands!.map((_, i) => ({
      brandName: `${capital(word('brands', i))} Footwear`,
      industryCategory: ['Footwear', 'Nutrition', 'Apparel', 'Wearables'][i],
      websiteUrl: `https://brand${i}.example`,
      instagramUrl: null,
      facebookUrl: null,
      linkedinUrl: i === 0 ? 'https://linkedin.com/company/brand0' : null,
      notes: 'Spring campaign',
      totalAdvertisingSpend: ['5000.00', '120.40', '0.00', '999.99'][i],
      paymentStatus: ['current', 'overdue', 'current', 'current'][i],
      lastCampaignEndDate: i < 2 ? `2026-0${i + 5}-30` : null,
      locationState: 'NSW',
      ...audit(ids, i),
    })),
  media: (ids) =>
    SEARCH_WORDS.media!.map((_, i) => ({
      mediaName: `${capital(word('media', i))} Radio`,
      industry: ['Radio', 'Podcast', 'Magazine'][i],
      websiteUrl: `https://media${i}.example`,
      instagramUrl: null,
      notes: null,
      ...audit(ids, i),
    })),
  influencers: (ids) =>
    SEARCH_WORDS.influencers!.map((_, i) => ({
      firstName: ['Jane', 'Mia', 'Tom'][i],
      lastName: capital(word('influencers', i)),
      influencerType: ['influencer', 'ambassador', 'influencer'][i],
      instagramHandle: `runs_${i}`,
      tiktokHandle: i === 0 ? 'janeruns' : null,
      facebookHandle: null,
      websiteUrl: null,
      email: `influencer${i}@mail.example`,
      phone: '+61 400 000 00' + i,
      notes: null,
      ...audit(ids, i),
    })),
  contacts: (ids) => {
    const owners: Array<[string, string, number]> = [
      ['event', 'events', 0],
      ['event', 'events', 0],
      ['event', 'events', 3],
      ['professional', 'professionals', 1],
      ['runclub', 'run_clubs', 2],
      ['brand', 'brands', 0],
      ['brand', 'brands', 3],
      ['media', 'media', 1],
    ];
    return owners.map(([entityType, table, owner], i) => ({
      firstName: ['Ana', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana'][i],
      lastName: capital(word('contacts', i)),
      jobTitle: i % 2 ? 'Race director' : null,
      email: i === 6 ? null : `contact${i}@Owner${owner}.example`,
      phone: i % 3 ? null : `02 9000 000${i}`,
      notes: null,
      mailchimpTags: i < 3 ? list('race-directors', 'vip') : null,
      entityType,
      entityId: ids(table)[owner],
      isPrimary: i === 0 || i === 3 ? 1 : 0,
      ...audit(ids, i),
    }));
  },
  payments: (ids) =>
    [
      ['brand', 'brands', 0, '2500.00', 'paid', '2026-10-05'],
      ['brand', 'brands', 1, '120.40', 'overdue', '2026-09-01'],
      ['event', 'events', 0, '1234.50', 'pending', '2026-11-02'],
      ['event', 'events', 3, '0.10', 'paid', null],
      ['professional', 'professionals', 2, '1200.25', 'pending', null],
      ['runclub', 'run_clubs', 1, '300.00', 'paid', '2026-11-15'],
    ].map(([entityType, table, owner, amount, invoiceStatus, paymentDate], i) => ({
      entityType,
      entityId: ids(String(table))[Number(owner)],
      paymentType: ['Campaign', 'Banner', 'Listing', 'Listing', 'Subscription', 'Membership'][i],
      description: `Invoice line ${i + 1}`,
      amount,
      paymentDate,
      startDate: '2026-09-01',
      endDate: i === 0 ? '2026-12-31' : null,
      invoiceNumber: `INV-00${i + 1}`,
      invoiceStatus,
      paymentMethod: i % 2 ? 'card' : 'bank transfer',
      notes: null,
      ...audit(ids, i),
    })),
  files: (ids) =>
    [
      ['event', 'events', 0, 'image'],
      ['brand', 'brands', 2, 'document'],
      ['runclub', 'run_clubs', 0, 'image'],
      [null, null, 0, null],
    ].map(([entityType, table, owner, fileCategory], i) => ({
      entityType,
      entityId: table ? ids(String(table))[Number(owner)] : null,
      fileName: `f${i}-2b7c.${i === 1 ? 'pdf' : 'jpg'}`,
      originalName: i === 1 ? 'Media kit 2026.pdf' : `Start line ${i}.jpg`,
      filePath: `${String(entityType ?? 'unattached')}/f${i}-2b7c`,
      fileType: i === 1 ? 'application/pdf' : 'image/jpeg',
      fileSize: 102_400 + i,
      fileCategory,
      description: i === 0 ? 'Start line at dawn' : null,
      uploadedAt: at('2026-11-01'),
      uploadedBy: ids('users')[i % 2],
    })),
  mailchimp_tags: () =>
    ['race-directors', 'vip', 'newsletter'].map((tagName, i) => ({
      tagName,
      tagDescription: `Tag ${tagName}`,
      entityTypes: i === 2 ? null : list('event', 'brand'),
      isActive: i === 2 ? 0 : 1,
      createdAt: at('2026-03-03'),
    })),
  sync_runs: (ids) =>
    [
      ['events', 'manual', 1, 0],
      ['professionals', 'schedule', 0, 0],
      ['runclubs', 'manual', 0, 1],
    ].map(([kind, trigger, success, cancelled], i) => ({
      kind,
      trigger,
      startedBy: trigger === 'manual' ? ids('users')[0] : null,
      startedAt: at('2026-11-1' + i, '03:00:00.000'),
      finishedAt: at('2026-11-1' + i, '03:00:41.250'),
      success,
      full: i === 0 ? 1 : 0,
      created: 12 + i,
      updated: 3,
      failed: success ? 0 : 2,
      durationMs: 41_250,
      message: success ? null : 'WordPress answered 502',
      errors: success ? list() : JSON.stringify([{ id: 77, message: 'Missing title' }]),
      notices: list('Post 812 is no longer published'),
      cancelled,
      warnings: list(),
    })),
  import_locks: () => [{ name: 'brands' }, { name: 'events' }],
  sync_locks: () => [
    { name: 'sync:events', holder: 'web-1:4242', acquiredAt: at('2026-11-27'), heartbeatAt: at('2026-11-27', '09:31:00.000') },
  ],
  user_preferences: (ids) => [
    { userId: ids('users')[0], name: 'theme', value: '"dark"', updatedAt: at('2026-11-01') },
    {
      userId: ids('users')[0],
      name: 'list:events',
      value: JSON.stringify({ view: 'table', columns: ['eventName', 'eventStartDate'] }),
      updatedAt: at('2026-11-02'),
    },
    { userId: ids('users')[1], name: 'theme', value: '"light"', updatedAt: at('2026-11-03') },
  ],
  sessions: (ids) =>
    [0, 0, 1].map((user, i) => ({
      id: hash(String.fromCharCode(97 + i)),
      userId: ids('users')[user],
      createdAt: at('2026-11-2' + i),
      lastSeenAt: at('2026-11-2' + i, '18:00:00.000'),
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      ip: `203.0.113.${i + 1}`,
    })),
  sign_in_throttle: () => [
    { throttleKey: hash('d'), failures: 3, resetAt: 1_795_000_000_000 },
    { throttleKey: hash('e'), failures: 1, resetAt: 1_795_000_900_000 },
  ],
  set_password_links: (ids) => [
    { userId: ids('users')[2], tokenHash: hash('f'), createdBy: ids('users')[0], createdAt: at('2026-11-26'), expiresAt: at('2026-12-03') },
  ],
  history: (ids) =>
    [
      ['event', 'events', 0, 'create', { eventName: 'Quokka Coast Half' }],
      ['event', 'events', 0, 'update', { totalAdvertisingSpend: ['0.00', '1234.50'] }],
      ['brand', 'brands', 1, 'update', { paymentStatus: ['current', 'overdue'] }],
      ['contact', 'contacts', 2, 'create', { firstName: 'Cleo' }],
      ['user', 'users', 1, 'update', { role: ['viewer', 'staff'] }],
      ['media', 'media', 0, 'delete', { mediaName: 'Gone FM', contacts: [] }],
    ].map(([entityType, table, owner, action, changes], i) => ({
      entityType,
      entityId: ids(String(table))[Number(owner)],
      action,
      at: at('2026-11-0' + (i + 1)),
      actorId: i === 5 ? null : ids('users')[i % 2],
      actorKind: i === 5 ? 'cli' : 'user',
      actorLabel: i === 5 ? 'deploy' : 'Ada Admin',
      runId: i === 2 ? 'import-17' : null,
      changes: JSON.stringify(changes),
    })),
  deleted_items: (ids) => [
    {
      entityType: 'media',
      entityId: 9001,
      name: 'Gone FM',
      holds: JSON.stringify({ contacts: 1, payments: 0, files: 0 }),
      snapshot: JSON.stringify({ record: { id: 9001, mediaName: 'Gone FM' }, contacts: [{ firstName: 'Old' }] }),
      deletedBy: ids('users')[0],
      deletedByLabel: 'Ada Admin',
      deletedAt: at('2026-11-06'),
    },
  ],
  jobs: (ids) =>
    [
      ['import', 'succeeded', null],
      ['sync', 'failed', null],
      ['sync', 'queued', 'sync:professionals'],
      ['newsletter', 'running', 'newsletter'],
    ].map(([type, state, activeKey], i) => ({
      type,
      state,
      params: JSON.stringify(type === 'import' ? { kind: 'brands', fileName: 'brands.csv' } : { kind: 'professionals' }),
      trigger: i === 2 ? 'schedule' : 'manual',
      startedBy: i === 2 ? null : ids('users')[0],
      activeKey,
      progressDone: [500, 20, 0, 3][i],
      progressTotal: [500, 40, null, 10][i],
      phase: state === 'running' ? 'pushing' : null,
      result: state === 'succeeded' ? JSON.stringify({ created: 480, updated: 20 }) : null,
      error: state === 'failed' ? JSON.stringify({ message: 'WordPress answered 502' }) : null,
      attempts: state === 'queued' ? 0 : 1,
      cancelRequested: 0,
      leaseOwner: state === 'running' ? 'worker-1' : null,
      leaseExpiresAt: state === 'running' ? at('2026-11-27', '09:32:00.000') : null,
      runAfter: null,
      createdAt: at('2026-11-2' + i),
      startedAt: state === 'queued' ? null : at('2026-11-2' + i, '09:30:01.000'),
      finishedAt: state === 'succeeded' || state === 'failed' ? at('2026-11-2' + i, '09:31:00.000') : null,
      updatedAt: at('2026-11-2' + i, '09:31:00.000'),
    })),
  job_inputs: (ids) =>
    [0, 1, 2].map((seq) => ({ jobId: ids('jobs')[0], seq, bytes: Buffer.from(`brandName,email\nAcme ${seq},a${seq}@x.example\n`) })),
  schedule_ticks: () => [
    { name: 'sync:events', tick: at('2026-11-27', '03:00:00.000') },
    { name: 'sync:events', tick: at('2026-11-28', '03:00:00.000') },
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Values made from a column's type, for what the builders above do not name.

function madeValue(table: string, column: string, facts: ColumnFacts, i: number): unknown {
  const type = facts.type;
  if (type === 'boolean' || type === 'tinyint') return i % 2;
  if (/int/.test(type)) return 100 + i;
  if (/decimal|numeric|float|double|real/.test(type)) return `${10 + i}.50`;
  if (type === 'date') return `2026-0${(i % 9) + 1}-1${i % 10}`;
  if (/datetime|timestamp/.test(type)) return at('2026-05-04');
  if (/blob|binary/.test(type)) return Buffer.from(`bytes ${table}.${column} ${i}`);
  if (type === 'json') return list(`${column} ${i}`);
  // Text: a JSON string, so a text column checked as JSON (MariaDB's JSON type) takes it as well.
  const quoted = JSON.stringify(`${table}.${column} ${i}`);
  if (facts.maxLength === null || quoted.length <= facts.maxLength) return quoted;
  return facts.maxLength >= 3 + String(i).length ? JSON.stringify(String(i)) : String(i % 10).slice(0, facts.maxLength);
}

/**
 * Tables in an order where each comes after the tables its foreign keys refer to: the known ones first, in the order
 * of BUILDERS (which also names the owners a row refers to without a foreign key), then the others.
 */
function inDependencyOrder(tables: string[], keys: Map<string, ForeignKey[]>): string[] {
  const ordered = Object.keys(BUILDERS).filter((table) => tables.includes(table));
  const visit = (table: string, path: string[]) => {
    if (ordered.includes(table) || path.includes(table)) return;
    for (const key of keys.get(table) ?? []) if (key.table !== table && tables.includes(key.table)) visit(key.table, [...path, table]);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, []);
  return ordered;
}

/** Rows a table this file does not know gets. */
const MADE_ROWS = 3;

/**
 * Writes realistic rows into every table of `db` but the derived ones, in an order where foreign keys are filled from
 * rows written before.
 */
export async function fillEveryTable(db: Knex): Promise<void> {
  const tables = (await tablesOf(db)).filter((table) => !DERIVED_TABLES.includes(table));
  const keys = new Map<string, ForeignKey[]>();
  for (const table of tables) keys.set(table, await foreignKeysOf(db, table));
  const written = new Map<string, number[]>();
  const ids = (table: string) => {
    const found = written.get(table);
    if (!found?.length) throw new Error(`rows of ${table} are needed before they are written`);
    return found;
  };
  const order = inDependencyOrder(tables, keys);
  for (const table of order) {
    const columns = await columnsOf(db, table);
    const given = BUILDERS[table]?.(ids) ?? Array.from({ length: MADE_ROWS }, (): Row => ({}));
    const named = new Set(given.flatMap((row) => Object.keys(row)));
    const rows = given.map((row, i) => {
      const out: Row = {};
      for (const [column, facts] of columns) {
        if (named.has(column)) {
          if (row[column] !== undefined) out[column] = row[column];
          continue;
        }
        // An auto-incremented id, or a column this file does not know: made from its type or its foreign key.
        if (column === 'id' && /int/.test(facts.type)) continue;
        const key = keys.get(table)!.find((k) => k.column === column);
        if (key) {
          const referred = written.get(key.table) ?? [];
          if (referred.length) out[column] = referred[i % referred.length];
          else if (!facts.nullable) throw new Error(`${table}.${column} refers to ${key.table}, which has no rows`);
          continue;
        }
        out[column] = madeValue(table, column, facts, i);
      }
      return out;
    });
    for (const row of rows) await db(table).insert(row);
    if (columns.has('id')) written.set(table, (await db(table).orderBy('id').pluck('id')).map(Number));
    else written.set(table, []);
  }
}

import type { Knex } from 'knex';
import { encodeRow, encodeTimestamp, sumMoney } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { withTransaction } from '@db/transaction.js';
import { addDays } from '@shared/calendar.js';
import { dayInZone } from '@shared/format.js';
import { RECORD_TYPE_INFO, type ContactOwnerType, type RecordType } from '@shared/record-types.js';
import type { AppContext } from '@services/context.js';
import { conflict } from '@services/errors.js';
import { insertPayment } from '@services/payments/queries.js';
import { insertContact } from '@services/contacts/writes.js';
import { insertRecordRow, updateRecordRows } from '@services/records/writes.js';

/**
 * A believable data set for trying the product: a season of races, the professionals and clubs around them,
 * sponsors, media and influencers, each with contacts, and a few payments. Loaded only into an empty database.
 * Dates are days from the day it is seeded (an event's `startIn` and `endIn`, `PAYMENT_DUE_IN`), so a demo loaded any day
 * has races coming up, one just run, and payments falling due around today, some of them overdue.
 */
const events: Array<Record<string, unknown> & { eventName: string; startIn?: number; endIn?: number }> = [
  {
    eventName: 'Sydney Harbour Half Marathon',
    wordpressEventId: 101,
    startIn: 24,
    locationState: 'NSW',
    locationAddress: 'Circular Quay, Sydney',
    locationLat: '-33.86120000',
    locationLng: '151.21070000',
    websiteUrl: 'https://harbourhalf.example.com',
    runType: ['half-marathon', '10k'],
    trackType: ['road'],
    featuredRace: true,
    entryCost: '$95 – $140',
    prizes: 'Medals for all finishers; cash prizes for top 3',
  },
  {
    eventName: 'Blue Mountains Ultra Trail',
    wordpressEventId: 102,
    startIn: 95,
    endIn: 96,
    locationState: 'NSW',
    locationAddress: 'Katoomba',
    websiteUrl: 'https://bmultra.example.com',
    runType: ['50k', '100k'],
    trackType: ['trail'],
    featuredRace: true,
    entryCost: '$220',
  },
  {
    eventName: 'Melbourne Tan Twilight 10K',
    wordpressEventId: 103,
    startIn: -70,
    locationState: 'VIC',
    locationAddress: 'Kings Domain, Melbourne',
    runType: ['10k', '5k'],
    trackType: ['road'],
    entryCost: '$45',
  },
  {
    eventName: 'Brisbane River Run',
    wordpressEventId: 104,
    startIn: 45,
    locationState: 'QLD',
    locationAddress: 'South Bank, Brisbane',
    runType: ['marathon', 'half-marathon'],
    trackType: ['road'],
    featuredRace: true,
  },
  {
    eventName: 'Perth Kings Park Parkland 5K',
    wordpressEventId: 105,
    startIn: 150,
    locationState: 'WA',
    locationAddress: 'Kings Park, Perth',
    runType: ['5k'],
    trackType: ['road', 'park'],
  },
  {
    eventName: 'Hobart Mt Wellington Climb',
    wordpressEventId: 106,
    startIn: 12,
    locationState: 'TAS',
    runType: ['21k'],
    trackType: ['trail', 'mountain'],
  },
  {
    eventName: 'Canberra Lakes Relay',
    startIn: 180,
    locationState: 'ACT',
    locationAddress: 'Lake Burley Griffin',
    runType: ['relay'],
    trackType: ['road'],
  },
  {
    eventName: 'Queenstown Alpine Marathon',
    wordpressEventId: 108,
    startIn: 330,
    locationState: 'NZ',
    runType: ['marathon'],
    trackType: ['trail'],
    entryCost: 'NZ$180',
  },
];

const professionals = [
  {
    businessName: 'Stride Lab Coaching',
    wordpressProfessionalId: 201,
    professionType: 'coach',
    locationState: 'NSW',
    websiteUrl: 'https://stridelab.example.com',
    instagramUrl: 'https://instagram.com/stridelab',
    specializations: ['marathon', 'beginners'],
    deliveryMethods: ['online', 'in-person'],
  },
  {
    businessName: 'Harbourside Physiotherapy',
    wordpressProfessionalId: 202,
    professionType: 'physiotherapist',
    locationState: 'NSW',
    subscriptionStatus: 'active',
    credentials: ['APA Sports Physio'],
  },
  {
    businessName: 'Fuel Right Nutrition',
    professionType: 'nutritionist',
    locationState: 'VIC',
    subscriptionStatus: 'pending',
    deliveryMethods: ['online'],
  },
  {
    businessName: 'Footworks Podiatry',
    wordpressProfessionalId: 204,
    professionType: 'podiatrist',
    locationState: 'QLD',
    subscriptionStatus: 'expired',
  },
  { businessName: 'Recovery Room Massage', professionType: 'massage-therapist', locationState: 'WA' },
  { businessName: 'Peak Strength Training', professionType: 'trainer', locationState: 'SA', specializations: ['strength for runners'] },
];

const runClubs = [
  {
    clubName: 'Bondi Sunrise Runners',
    wordpressClubId: 301,
    locationState: 'NSW',
    locationAddress: 'Bondi Pavilion',
    clubType: ['road', 'social'],
    foundedYear: 2016,
    membershipCount: 180,
    meetingTimes: ['Tue 6:00am', 'Sat 6:30am'],
    instagramUrl: 'https://instagram.com/bondisunrise',
    isPayingMember: true,
    paymentStatus: 'paid',
  },
  {
    clubName: 'Yarra Trail Collective',
    wordpressClubId: 302,
    locationState: 'VIC',
    clubType: ['trail'],
    foundedYear: 2019,
    membershipCount: 95,
    meetingTimes: ['Sun 7:00am'],
  },
  {
    clubName: 'Brisbane Track Pack',
    locationState: 'QLD',
    clubType: ['track'],
    foundedYear: 2012,
    membershipCount: 60,
    meetingTimes: ['Wed 5:30pm'],
  },
  { clubName: 'Fremantle Mixed Milers', wordpressClubId: 304, locationState: 'WA', clubType: ['mixed'], membershipCount: 42 },
  { clubName: 'Adelaide Hills Harriers', locationState: 'SA', clubType: ['trail', 'road'], foundedYear: 1998, membershipCount: 240 },
];

const brands = [
  {
    brandName: 'Stride Footwear',
    industryCategory: 'Footwear',
    websiteUrl: 'https://stridefootwear.example.com',
    instagramUrl: 'https://instagram.com/stridefootwear',
    locationState: 'VIC',
    notes: 'Title sponsor for the Harbour Half.',
  },
  { brandName: 'Hydra Electrolytes', industryCategory: 'Nutrition', websiteUrl: 'https://hydra.example.com', locationState: 'NSW' },
  { brandName: 'Summit Watches', industryCategory: 'Wearables', websiteUrl: 'https://summit.example.com' },
  { brandName: 'Trailhead Apparel', industryCategory: 'Apparel', locationState: 'TAS' },
  { brandName: 'Recover+ Rollers', industryCategory: 'Recovery', paymentStatus: 'overdue' },
  { brandName: 'Morning Oats Co.', industryCategory: 'Food' },
];

const media = [
  {
    mediaName: 'Run Weekly',
    industry: 'Magazine',
    websiteUrl: 'https://runweekly.example.com',
    instagramUrl: 'https://instagram.com/runweekly',
  },
  { mediaName: 'The Trail Talk Podcast', industry: 'Podcast', websiteUrl: 'https://trailtalk.example.com' },
  { mediaName: 'Coastal Radio Sport', industry: 'Radio' },
  { mediaName: 'Pace Notes Newsletter', industry: 'Newsletter' },
];

const influencers = [
  {
    firstName: 'Mia',
    lastName: 'Tran',
    influencerType: 'influencer',
    instagramHandle: 'miaruns',
    tiktokHandle: 'miaruns',
    email: 'mia@example.com',
  },
  {
    firstName: 'Jack',
    lastName: 'Oduya',
    influencerType: 'pro',
    instagramHandle: 'jackoduya',
    websiteUrl: 'https://jackoduya.example.com',
  },
  {
    firstName: 'Priya',
    lastName: 'Shah',
    influencerType: 'both',
    instagramHandle: 'priya.trails',
    facebookHandle: 'priyatrails',
    phone: '+61 400 111 222',
  },
  { firstName: 'Liam', lastName: "O'Connor", influencerType: 'influencer', tiktokHandle: 'liamlongruns' },
  { firstName: 'Sofia', lastName: 'Rossi', influencerType: 'pro', instagramHandle: 'sofiarossi_run', email: 'sofia@example.com' },
];

const people = [
  ['Olivia', 'Nguyen', 'Race Director'],
  ['Noah', 'Williams', 'Sponsorship Manager'],
  ['Charlotte', 'Brown', 'Marketing Lead'],
  ['Oliver', 'Smith', 'Owner'],
  ['Amelia', 'Jones', 'Head Coach'],
  ['Lucas', 'Taylor', 'Partnerships'],
  ['Isla', 'Wilson', 'Editor'],
  ['Ethan', 'Martin', 'Club President'],
] as const;

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

export async function seedDemoData(ctx: AppContext): Promise<Record<string, number>> {
  const db = ctx.db;
  for (const { table } of Object.values(RECORD_TYPE_INFO)) {
    const row = (await db(table).count({ n: '*' }).first()) as { n: number | string } | undefined;
    if (Number(row?.n ?? 0) > 0) throw conflict('The database already has records: demo data is only loaded into an empty database.');
  }
  const stamp = encodeTimestamp(ctx.clock.now());
  const today = dayInZone(ctx.clock.now(), 'UTC');
  const audit = { createdAt: stamp, updatedAt: stamp };

  return withTransaction(ctx, async (trx) => {
    const insertAll = async (type: RecordType, rows: Array<Record<string, unknown>>) => {
      const { table } = RECORD_TYPE_INFO[type];
      const ids: number[] = [];
      for (const row of rows) ids.push(await insertRecordRow(trx, type, encodeRow(columnKinds[table], { ...row, ...audit })));
      return ids;
    };

    const eventIds = await insertAll(
      'event',
      events.map(({ startIn, endIn, ...event }) => ({
        ...event,
        eventStartDate: startIn === undefined ? null : addDays(today, startIn),
        eventEndDate: endIn === undefined ? null : addDays(today, endIn),
      })),
    );
    const professionalIds = await insertAll('professional', professionals);
    const clubIds = await insertAll('runclub', runClubs);
    const brandIds = await insertAll('brand', brands);
    const mediaIds = await insertAll('media', media);
    await insertAll('influencer', influencers);

    await trx('event_distances').insert([
      encodeRow(columnKinds.event_distances, {
        eventId: eventIds[0],
        distanceKm: '21.10',
        distanceStartTime: '06:30',
        entryFee: '140.00',
        participantsCount: 4200,
        createdAt: stamp,
      }),
      encodeRow(columnKinds.event_distances, {
        eventId: eventIds[0],
        distanceKm: '10.00',
        distanceStartTime: '07:15',
        entryFee: '95.00',
        participantsCount: 3100,
        createdAt: stamp,
      }),
      encodeRow(columnKinds.event_distances, {
        eventId: eventIds[1],
        distanceKm: '100.00',
        distanceStartTime: '05:00',
        entryFee: '220.00',
        createdAt: stamp,
      }),
    ]);
    await trx('run_club_schedules').insert([
      encodeRow(columnKinds.run_club_schedules, {
        clubId: clubIds[0],
        title: 'Sunrise social 5K',
        dayOfWeek: 'Saturday',
        startTime: '06:30',
        runStyle: 'social',
        createdAt: stamp,
      }),
      encodeRow(columnKinds.run_club_schedules, {
        clubId: clubIds[0],
        title: 'Tempo Tuesday',
        dayOfWeek: 'Tuesday',
        startTime: '06:00',
        runStyle: 'tempo',
        createdAt: stamp,
      }),
      encodeRow(columnKinds.run_club_schedules, {
        clubId: clubIds[1],
        title: 'Long trail run',
        dayOfWeek: 'Sunday',
        startTime: '07:00',
        runStyle: 'trail',
        createdAt: stamp,
      }),
    ]);

    const owners: Array<[ContactOwnerType, number, string]> = [
      ...eventIds.slice(0, 5).map((id, i): [ContactOwnerType, number, string] => ['event', id, events[i]!.eventName]),
      ...professionalIds
        .slice(0, 3)
        .map((id, i): [ContactOwnerType, number, string] => ['professional', id, professionals[i]!.businessName]),
      ...clubIds.slice(0, 3).map((id, i): [ContactOwnerType, number, string] => ['runclub', id, runClubs[i]!.clubName]),
      ...brandIds.map((id, i): [ContactOwnerType, number, string] => ['brand', id, brands[i]!.brandName]),
      ...mediaIds.slice(0, 3).map((id, i): [ContactOwnerType, number, string] => ['media', id, media[i]!.mediaName]),
    ];
    let contacts = 0;
    for (const [index, [entityType, entityId, ownerName]] of owners.entries()) {
      const count = 1 + (index % 2);
      for (let n = 0; n < count; n++) {
        const [firstName, lastName, jobTitle] = people[(index + n) % people.length]!;
        await insertContact(trx, {
          firstName,
          lastName,
          jobTitle,
          email: `${firstName.toLowerCase()}@${slug(ownerName)}.example.com`,
          phone: `+61 2 9${String(100 + index).padStart(3, '0')} ${String(1000 + n * 111)}`,
          mailchimpTags: [entityType, n === 0 ? 'primary-contact' : 'newsletter'],
          entityType,
          entityId,
          isPrimary: n === 0,
          notes: n === 0 ? 'Main point of contact.' : null,
          ...audit,
        });
        contacts++;
      }
    }

    const payments = await seedPayments(trx, stamp, today, {
      event: eventIds[0]!,
      brand: brandIds[0]!,
      professional: professionalIds[1]!,
      runclub: clubIds[0]!,
    });
    return {
      events: events.length,
      professionals: professionals.length,
      'run clubs': runClubs.length,
      brands: brands.length,
      media: media.length,
      influencers: influencers.length,
      contacts,
      payments,
    };
  });
}

/**
 * A few payments, with each owner's stored total set to their exact sum: pending and paid in turn, due from six
 * weeks back to three weeks ahead, so two pending ones are overdue and one falls due soon.
 */
const PAYMENT_DUE_IN = [-40, -25, -12, -5, 10, 20];

async function seedPayments(
  trx: Knex.Transaction,
  stamp: string | null,
  today: string,
  owners: { event: number; brand: number; professional: number; runclub: number },
) {
  const plan: Array<{ entityType: RecordType; entityId: number; totalColumn: string; amounts: Array<[string, string]> }> = [
    {
      entityType: 'event',
      entityId: owners.event,
      totalColumn: 'totalAdvertisingSpend',
      amounts: [
        ['Instagram campaign', '1250.00'],
        ['Newsletter feature', '480.50'],
      ],
    },
    {
      entityType: 'brand',
      entityId: owners.brand,
      totalColumn: 'totalAdvertisingSpend',
      amounts: [
        ['Title sponsorship instalment 1', '5000.00'],
        ['Expo stand', '750.25'],
      ],
    },
    {
      entityType: 'professional',
      entityId: owners.professional,
      totalColumn: 'totalPayments',
      amounts: [['Annual directory listing', '199.00']],
    },
    { entityType: 'runclub', entityId: owners.runclub, totalColumn: 'totalPayments', amounts: [['Club membership', '120.00']] },
  ];
  let count = 0;
  for (const owner of plan) {
    for (const [description, amount] of owner.amounts) {
      // Through the payments' own write, which keeps the dashboard's payment totals in step.
      await insertPayment(trx, {
        entityType: owner.entityType,
        entityId: owner.entityId,
        description,
        amount,
        paymentType: 'advertising',
        paymentDate: addDays(today, PAYMENT_DUE_IN[count % PAYMENT_DUE_IN.length]!),
        invoiceNumber: `INV-${1000 + count}`,
        invoiceStatus: count % 2 ? 'paid' : 'pending',
        createdAt: stamp,
        updatedAt: stamp,
      });
      count++;
    }
    await updateRecordRows(trx, owner.entityType, [owner.entityId], {
      [owner.totalColumn]: sumMoney(owner.amounts.map(([, amount]) => amount)),
    });
  }
  return count;
}

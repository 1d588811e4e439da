import type { Knex } from 'knex';

/**
 * One index per list sort, on (sort columns…, id): every sort ends on the id in its own direction, so the database
 * walks one index forwards or backwards and never sorts the table (test/api/records-sort.test.ts checks the plans).
 * The single-column sort indexes of 20261121000000 and 20261121100000 are replaced by their (column, id) forms.
 */

const replaced: Array<[table: string, columns: string[]]> = [
  ['events', ['eventStartDate']],
  ['events', ['eventName']],
  ['events', ['updatedAt']],
  ['events', ['featuredRace']],
  ['professionals', ['businessName']],
  ['professionals', ['updatedAt']],
  ['run_clubs', ['clubName']],
  ['run_clubs', ['updatedAt']],
  ['brands', ['brandName']],
  ['brands', ['updatedAt']],
  ['media', ['mediaName']],
  ['media', ['updatedAt']],
  ['influencers', ['lastName', 'firstName']],
  ['influencers', ['updatedAt']],
];

const added: Array<[table: string, columns: string[]]> = [
  ['events', ['locationState']],
  ['events', ['totalAdvertisingSpend']],
  ['events', ['wordpressLastSync']],
  ['professionals', ['professionType']],
  ['professionals', ['locationState']],
  ['professionals', ['subscriptionStatus']],
  ['professionals', ['totalPayments']],
  ['professionals', ['lastNewsletterInclusion']],
  ['run_clubs', ['locationState']],
  ['run_clubs', ['membershipCount']],
  ['run_clubs', ['paymentStatus']],
  ['run_clubs', ['totalPayments']],
  ['run_clubs', ['lastNewsletterInclusion']],
  ['brands', ['industryCategory']],
  ['brands', ['locationState']],
  ['brands', ['totalAdvertisingSpend']],
  ['brands', ['paymentStatus']],
  ['brands', ['lastCampaignEndDate']],
  ['media', ['industry']],
  ['influencers', ['influencerType']],
  ['influencers', ['instagramHandle']],
  ['influencers', ['email']],
];

const withId = (columns: string[]) => [...columns, 'id'];

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns] of replaced) {
    await knex.schema.alterTable(table, (t) => {
      t.index(withId(columns));
      t.dropIndex(columns);
    });
  }
  for (const [table, columns] of added) {
    await knex.schema.alterTable(table, (t) => {
      t.index(withId(columns));
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, columns] of added) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(withId(columns));
    });
  }
  for (const [table, columns] of replaced) {
    await knex.schema.alterTable(table, (t) => {
      t.index(columns);
      t.dropIndex(withId(columns));
    });
  }
}

import type { Knex } from 'knex';

/**
 * Every entity of spec point 3. Column names are the spec's camelCase field names. The screen-only fields the
 * spec lists for professionals and run clubs are stored here too (see docs/decisions/0010-record-field-mapping.md).
 */

function mysqlTableOptions(knex: Knex, table: Knex.CreateTableBuilder) {
  if (knex.client.config.client === 'mysql2') {
    table.charset('utf8mb4');
    table.collate('utf8mb4_unicode_ci');
    table.engine('InnoDB');
  }
}

function timestamps(knex: Knex, table: Knex.CreateTableBuilder, options: { updated?: boolean; createdBy?: boolean } = {}) {
  table.specificType('createdAt', knex.client.config.client === 'mysql2' ? 'DATETIME(3)' : 'TEXT').notNullable();
  if (options.updated !== false)
    table.specificType('updatedAt', knex.client.config.client === 'mysql2' ? 'DATETIME(3)' : 'TEXT').notNullable();
  if (options.createdBy !== false) table.integer('createdBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
}

function datetime(knex: Knex, table: Knex.CreateTableBuilder, name: string) {
  return table.specificType(name, knex.client.config.client === 'mysql2' ? 'DATETIME(3)' : 'TEXT');
}

function location(table: Knex.CreateTableBuilder) {
  table.string('locationAddress', 500);
  table.decimal('locationLat', 10, 8);
  table.decimal('locationLng', 11, 8);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('email', 320).notNullable().unique();
    t.string('passwordHash', 100).notNullable();
    t.string('firstName', 100).notNullable().defaultTo('');
    t.string('lastName', 100).notNullable().defaultTo('');
    datetime(knex, t, 'createdAt').notNullable();
    datetime(knex, t, 'lastLogin');
    t.boolean('isActive').notNullable().defaultTo(true);
    // Bumped on logout, password change and deactivation so copied session cookies stop working.
    t.integer('sessionVersion').unsigned().notNullable().defaultTo(0);
  });

  await knex.schema.createTable('events', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('eventName', 255).notNullable();
    t.integer('wordpressEventId').unsigned().unique();
    t.date('eventStartDate');
    t.date('eventEndDate');
    t.string('websiteUrl', 2048);
    t.string('locationState', 10);
    location(t);
    t.json('runType');
    t.json('trackType');
    t.boolean('featuredRace').notNullable().defaultTo(false);
    t.text('entryCost');
    t.text('prizes');
    t.json('galleryImages');
    t.date('lastNewsletterInclusion');
    t.text('newsletterInclusionNotes');
    t.decimal('totalAdvertisingSpend', 10, 2).notNullable().defaultTo(0);
    t.text('notes');
    datetime(knex, t, 'wordpressLastSync');
    timestamps(knex, t);
    t.index(['eventStartDate']);
  });

  await knex.schema.createTable('event_distances', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.integer('eventId').unsigned().notNullable().references('id').inTable('events').onDelete('CASCADE');
    t.decimal('distanceKm', 6, 2);
    t.date('distanceStartDate');
    t.string('distanceStartTime', 20);
    t.decimal('entryFee', 10, 2);
    t.integer('participantsCount').unsigned();
    t.string('gpxFilePath', 1024);
    t.string('stravaLink', 2048);
    t.string('elevationTitle', 255);
    t.string('medianTime', 50);
    t.string('lastTime', 50);
    t.json('prizes');
    t.text('prizeDescription');
    t.string('recommendTitle', 255);
    t.string('productUrl', 2048);
    t.string('productImagePath', 1024);
    timestamps(knex, t, { updated: false, createdBy: false });
    t.index(['eventId']);
  });

  await knex.schema.createTable('professionals', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('businessName', 255).notNullable();
    t.integer('wordpressProfessionalId').unsigned().unique();
    t.string('professionType', 50);
    t.json('contactType');
    t.json('trackType');
    t.json('specializations');
    t.json('credentials');
    t.json('deliveryMethods');
    location(t);
    t.string('locationState', 10);
    t.string('websiteUrl', 2048);
    t.string('instagramUrl', 2048);
    t.string('facebookUrl', 2048);
    t.string('subscriptionStatus', 20).notNullable().defaultTo('active');
    t.date('subscriptionExpiryDate');
    t.decimal('totalPayments', 10, 2).notNullable().defaultTo(0);
    t.boolean('paymentAlertFlag').notNullable().defaultTo(false);
    t.date('lastNewsletterInclusion');
    t.text('newsletterInclusionNotes');
    t.text('notes');
    datetime(knex, t, 'wordpressLastSync');
    timestamps(knex, t);
  });

  await knex.schema.createTable('run_clubs', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('clubName', 255).notNullable();
    t.integer('wordpressClubId').unsigned().unique();
    location(t);
    t.string('locationState', 10);
    t.json('clubType');
    t.integer('foundedYear').unsigned();
    t.integer('membershipCount').unsigned();
    t.json('meetingTimes');
    t.string('cost', 255);
    t.integer('averageAttendance').unsigned();
    t.string('websiteUrl', 2048);
    t.string('instagramUrl', 2048);
    t.string('facebookUrl', 2048);
    t.string('founderInstagramUrl', 2048);
    t.string('clubEmail', 320);
    t.boolean('isPayingMember').notNullable().defaultTo(false);
    t.string('paymentStatus', 20).notNullable().defaultTo('none');
    t.decimal('totalPayments', 10, 2).notNullable().defaultTo(0);
    t.text('extras');
    t.text('footnote');
    t.string('socialTitle', 255);
    t.date('lastNewsletterInclusion');
    t.text('newsletterInclusionNotes');
    t.text('notes');
    datetime(knex, t, 'wordpressLastSync');
    timestamps(knex, t);
  });

  await knex.schema.createTable('run_club_schedules', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.integer('clubId').unsigned().notNullable().references('id').inTable('run_clubs').onDelete('CASCADE');
    t.string('title', 255);
    t.string('dayOfWeek', 20);
    t.date('specificDate');
    t.string('startTime', 20);
    t.string('endTime', 20);
    t.boolean('isRecurring').notNullable().defaultTo(true);
    t.text('description');
    t.string('runStyle', 100);
    t.string('cost', 255);
    location(t);
    timestamps(knex, t, { updated: false, createdBy: false });
    t.index(['clubId']);
  });

  await knex.schema.createTable('brands', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('brandName', 255).notNullable();
    t.string('industryCategory', 255);
    t.string('websiteUrl', 2048);
    t.string('instagramUrl', 2048);
    t.string('facebookUrl', 2048);
    t.string('linkedinUrl', 2048);
    t.text('notes');
    t.decimal('totalAdvertisingSpend', 10, 2).notNullable().defaultTo(0);
    t.string('paymentStatus', 20).notNullable().defaultTo('current');
    t.date('lastCampaignEndDate');
    t.string('locationState', 10);
    timestamps(knex, t);
  });

  await knex.schema.createTable('media', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('mediaName', 255).notNullable();
    t.string('industry', 255);
    t.string('websiteUrl', 2048);
    t.string('instagramUrl', 2048);
    t.text('notes');
    timestamps(knex, t);
  });

  await knex.schema.createTable('influencers', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('firstName', 100).notNullable();
    t.string('lastName', 100).notNullable();
    t.string('influencerType', 20).notNullable().defaultTo('influencer');
    t.string('instagramHandle', 100);
    t.string('tiktokHandle', 100);
    t.string('facebookHandle', 255);
    t.string('websiteUrl', 2048);
    t.string('email', 320);
    t.string('phone', 50);
    t.text('notes');
    timestamps(knex, t);
  });

  await knex.schema.createTable('contacts', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('firstName', 100).notNullable();
    t.string('lastName', 100).notNullable();
    t.string('jobTitle', 255);
    t.string('email', 320);
    t.string('phone', 50);
    t.text('notes');
    t.json('mailchimpTags');
    t.string('entityType', 20).notNullable();
    t.integer('entityId').unsigned().notNullable();
    t.boolean('isPrimary').notNullable().defaultTo(false);
    timestamps(knex, t);
    t.index(['entityType', 'entityId']);
    t.index(['email']);
  });

  await knex.schema.createTable('payments', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('entityType', 20).notNullable();
    t.integer('entityId').unsigned().notNullable();
    t.string('paymentType', 100);
    t.string('description', 1000).notNullable();
    t.decimal('amount', 10, 2).notNullable();
    t.date('paymentDate');
    t.date('startDate');
    t.date('endDate');
    t.string('invoiceNumber', 100);
    t.string('invoiceStatus', 20).notNullable().defaultTo('pending');
    t.string('paymentMethod', 100);
    t.text('notes');
    timestamps(knex, t);
    t.index(['entityType', 'entityId']);
  });

  await knex.schema.createTable('files', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('entityType', 20);
    t.integer('entityId').unsigned();
    t.string('fileName', 255).notNullable();
    t.string('originalName', 255).notNullable();
    t.string('filePath', 1024).notNullable();
    t.string('fileType', 100);
    t.integer('fileSize').unsigned();
    t.string('fileCategory', 20);
    t.text('description');
    datetime(knex, t, 'uploadedAt').notNullable();
    t.integer('uploadedBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.index(['entityType', 'entityId']);
  });

  await knex.schema.createTable('mailchimp_tags', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('tagName', 100).notNullable().unique();
    t.text('tagDescription');
    t.json('entityTypes');
    t.boolean('isActive').notNullable().defaultTo(true);
    datetime(knex, t, 'createdAt').notNullable();
  });

  await knex.schema.createTable('sync_runs', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('kind', 30).notNullable();
    t.string('trigger', 20).notNullable();
    t.integer('startedBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    datetime(knex, t, 'startedAt').notNullable();
    datetime(knex, t, 'finishedAt');
    t.boolean('success');
    t.boolean('full').notNullable().defaultTo(false);
    t.integer('created').unsigned().notNullable().defaultTo(0);
    t.integer('updated').unsigned().notNullable().defaultTo(0);
    t.integer('failed').unsigned().notNullable().defaultTo(0);
    t.integer('durationMs').unsigned();
    t.text('message');
    t.json('errors');
    t.index(['kind', 'startedAt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'sync_runs',
    'mailchimp_tags',
    'files',
    'payments',
    'contacts',
    'influencers',
    'media',
    'brands',
    'run_club_schedules',
    'run_clubs',
    'professionals',
    'event_distances',
    'events',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}

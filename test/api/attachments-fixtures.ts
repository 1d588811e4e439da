import type { Knex } from 'knex';
import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';

/** Inserts a bare owner record straight into its table (the records area owns the real create). */
export async function insertOwner(db: Knex, type: RecordType, name = `${type} one`): Promise<number> {
  const now = encodeTimestamp(new Date('2026-11-20T10:00:00Z'));
  const names: Record<RecordType, Record<string, string>> = {
    event: { eventName: name },
    professional: { businessName: name },
    runclub: { clubName: name },
    brand: { brandName: name },
    media: { mediaName: name },
    influencer: { firstName: name, lastName: 'Person' },
  };
  const [inserted] = (await db(RECORD_TYPE_INFO[type].table).insert({ ...names[type], createdAt: now, updatedAt: now })) as number[];
  return Number(inserted);
}

export async function ownerTotal(db: Knex, type: 'event' | 'brand' | 'professional' | 'runclub', id: number): Promise<string> {
  const { table } = RECORD_TYPE_INFO[type];
  const column = type === 'event' || type === 'brand' ? 'totalAdvertisingSpend' : 'totalPayments';
  const row = decodeRow<Record<string, string>>(
    columnKinds[table],
    (await db(table).where({ id }).first(column)) as Record<string, unknown>,
  );
  return row[column]!;
}

/** Real file signatures, enough for detection by bytes. */
export const samples = {
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
  jpeg: Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0'),
    Buffer.alloc(64, 1),
    Buffer.from([0xff, 0xd9]),
  ]),
  gif: Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0]), Buffer.alloc(32)]),
  mp4: Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
    Buffer.alloc(64),
  ]),
  mov: Buffer.concat([
    Buffer.from([0, 0, 0, 0x14]),
    Buffer.from('ftypqt  '),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('qt  '),
    Buffer.alloc(64),
  ]),
  avi: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('AVI LIST'), Buffer.alloc(64)]),
  zip: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]), Buffer.alloc(64)]),
  html: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
};

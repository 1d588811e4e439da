import fc from 'fast-check';
import { MAX_FILE_BYTES } from '@shared/schemas/files.js';
import { RECORD_TYPES } from '@shared/record-types.js';
import { anyText, idFrom, rarely, type IdOwner, type IdPools } from './values.js';

/** Leading bytes file-type recognises, so some uploads get past type detection and reach the database. */
const MAGIC: Record<string, Buffer> = {
  // Whole 1×1 images (file-type reads past the signature), then filler.
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
  jpeg: Buffer.from('ffd8ffe000104a464946000101', 'hex'),
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  mp4: Buffer.from('000000186674797069736f6d0000020069736f6d', 'hex'),
  exe: Buffer.from('MZ\x90\x00', 'latin1'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'latin1'),
  none: Buffer.alloc(0),
};
export type Magic = keyof typeof MAGIC;

type PartValue = { text: string } | { id: IdOwner | 'owner'; pick: number } | { repeat: string; times: number };

interface MultipartPart {
  name: string;
  /** Absent: a field; null: a file part with no filename parameter. */
  filename?: string | null;
  /** How the filename travels: filename="…" or RFC 5987 filename*=. */
  filenameStyle?: 'plain' | 'star';
  contentType?: string;
  value?: PartValue;
  file?: { magic: Magic; size: number };
  /** Drops the Content-Disposition line, or the blank line ending the part's headers. */
  broken?: 'no-disposition' | 'no-blank-line' | 'lf-only';
}

export interface MultipartBody {
  parts: MultipartPart[];
  boundary: string;
  /** What Content-Type says the boundary is. */
  declared: 'same' | 'other' | 'missing' | 'quoted' | 'empty';
  ending: 'proper' | 'no-final-boundary' | 'garbage-after' | 'missing-dashes';
  preamble: string;
}

/** Deterministic filler bytes, so a case renders the same bytes every time. */
function filler(size: number, salt: number): Buffer {
  const bytes = Buffer.alloc(size);
  let state = (salt * 2654435761 + size) >>> 0;
  for (let i = 0; i < size; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

export function fileBytes(file: { magic: Magic; size: number }): Buffer {
  const magic = MAGIC[file.magic]!;
  if (file.size <= magic.length) return magic.subarray(0, file.size);
  return Buffer.concat([magic, filler(file.size - magic.length, file.size)]);
}

function partValueText(value: PartValue | undefined, pools: IdPools, owner: IdOwner): string {
  if (!value) return '';
  if ('text' in value) return value.text;
  if ('repeat' in value) return value.repeat.repeat(value.times);
  return String(idFrom(pools, value.id === 'owner' ? owner : value.id, value.pick));
}

export function contentTypeOf(body: MultipartBody): string {
  switch (body.declared) {
    case 'same':
      return `multipart/form-data; boundary=${body.boundary}`;
    case 'quoted':
      return `multipart/form-data; boundary="${body.boundary}"`;
    case 'other':
      return 'multipart/form-data; boundary=not-the-one-used';
    case 'empty':
      return 'multipart/form-data; boundary=';
    case 'missing':
      return 'multipart/form-data';
  }
}

export function renderMultipart(body: MultipartBody, pools: IdPools): Buffer {
  // An owner id in the form refers to the entityType field sent with it (when that names a record type).
  const typeField = body.parts.find((part) => part.name === 'entityType' && part.value && 'text' in part.value)?.value as
    { text: string } | undefined;
  const owner: IdOwner = typeField && (RECORD_TYPES as readonly string[]).includes(typeField.text) ? (typeField.text as IdOwner) : 'event';
  const chunks: Buffer[] = [];
  if (body.preamble) chunks.push(Buffer.from(`${body.preamble}\r\n`));
  for (const part of body.parts) {
    const eol = part.broken === 'lf-only' ? '\n' : '\r\n';
    const lines: string[] = [`--${body.boundary}`];
    if (part.broken !== 'no-disposition') {
      let disposition = `Content-Disposition: form-data; name="${part.name}"`;
      if (part.filename !== undefined && part.filename !== null) {
        disposition +=
          part.filenameStyle === 'star'
            ? `; filename*=UTF-8''${encodeURIComponent(part.filename.replace(/[\ud800-\udfff]/g, '_'))}`
            : `; filename="${part.filename}"`;
      }
      lines.push(disposition);
    }
    if (part.contentType !== undefined) lines.push(`Content-Type: ${part.contentType}`);
    chunks.push(Buffer.from(lines.join(eol) + eol + (part.broken === 'no-blank-line' ? '' : eol)));
    chunks.push(part.file ? fileBytes(part.file) : Buffer.from(partValueText(part.value, pools, owner)));
    chunks.push(Buffer.from(eol));
  }
  if (body.ending === 'proper') chunks.push(Buffer.from(`--${body.boundary}--\r\n`));
  if (body.ending === 'missing-dashes') chunks.push(Buffer.from(`--${body.boundary}\r\n`));
  if (body.ending === 'garbage-after')
    chunks.push(Buffer.from(`--${body.boundary}--\r\ntrailing garbage \u0000\r\n--${body.boundary}\r\n`));
  return Buffer.concat(chunks);
}

export function showMultipart(body: MultipartBody): string {
  const parts = body.parts.map((part) => {
    const value = part.file
      ? `<${part.file.magic} file, ${part.file.size} bytes>`
      : part.value && 'text' in part.value
        ? JSON.stringify(part.value.text.length > 60 ? `${part.value.text.slice(0, 60)}…` : part.value.text)
        : part.value && 'repeat' in part.value
          ? `<${JSON.stringify(part.value.repeat)} x ${part.value.times}>`
          : part.value
            ? `<id of ${part.value.id} #${part.value.pick}>`
            : '""';
    const filename =
      part.filename === undefined
        ? ''
        : part.filename === null
          ? ' (file, no filename)'
          : ` filename${part.filenameStyle === 'star' ? '*' : ''}=${JSON.stringify(part.filename)}`;
    return `${JSON.stringify(part.name)}${filename}${part.contentType !== undefined ? ` type=${JSON.stringify(part.contentType)}` : ''}${part.broken ? ` [${part.broken}]` : ''} = ${value}`;
  });
  return `multipart(boundary ${JSON.stringify(body.boundary)} declared ${body.declared}, ending ${body.ending}${body.preamble ? ', preamble' : ''}) [${parts.join('; ')}]`;
}

// ---------------------------------------------------------------------------------------------------------
// Arbitraries

const typeValue: fc.Arbitrary<PartValue> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...RECORD_TYPES).map((text): PartValue => ({ text })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('contact', 'Event', 'events', '__proto__', 'constructor', '', ' event').map((text): PartValue => ({ text })),
  },
  { weight: 1, arbitrary: anyText.map((text): PartValue => ({ text })) },
);

const idValue: fc.Arbitrary<PartValue> = fc.oneof(
  { weight: 8, arbitrary: fc.nat(20).map((pick): PartValue => ({ id: 'owner', pick })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('0', '-1', '4294967296', '99999999999', '1.5', 'abc', '', ' 1').map((text): PartValue => ({ text })),
  },
  { weight: 1, arbitrary: anyText.map((text): PartValue => ({ text })) },
);

const fieldPart: fc.Arbitrary<MultipartPart> = fc.oneof(
  { weight: 4, arbitrary: typeValue.map((value): MultipartPart => ({ name: 'entityType', value })) },
  { weight: 4, arbitrary: idValue.map((value): MultipartPart => ({ name: 'entityId', value })) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        name: fc.oneof(
          fc.constantFrom('files', 'other', '', '__proto__', 'constructor', 'entityType'),
          anyText,
          fc.constant('n'.repeat(101)),
        ),
        value: fc.oneof(
          anyText.map((text): PartValue => ({ text })),
          fc.record({ repeat: fc.constantFrom('a', 'é'), times: fc.constantFrom(1024, 1025, 5000) }),
        ),
      })
      .map((part): MultipartPart => part),
  },
);

const fileName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('photo.png', 'IMG_0001.JPG', 'clip.mp4', 'a.gif', 'run.mov') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '.',
      '..',
      '../../etc/passwd',
      '..\\..\\x.png',
      'a\u0000b.png',
      'é😀 café.gif',
      'a"b.png',
      'a;b=c.png',
      '%00.png',
      '.hidden',
      'CON',
      'x'.repeat(300) + '.png',
      'y'.repeat(300),
    ),
  },
  { weight: 1, arbitrary: anyText },
);

const fileSize = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 4096 }) },
  { weight: 2, arbitrary: fc.integer({ min: 4097, max: 300_000 }) },
  // At and just past the 10 MB limit: rare, they are the slow cases.
  { weight: 1, arbitrary: fc.constantFrom(MAX_FILE_BYTES, MAX_FILE_BYTES + 1, MAX_FILE_BYTES + 70_000) },
);

const filePart: fc.Arbitrary<MultipartPart> = fc.record(
  {
    name: fc.oneof(
      { weight: 8, arbitrary: fc.constant('files') },
      { weight: 1, arbitrary: fc.constantFrom('file', 'entityType', '', 'files[]') },
    ),
    filename: fc.oneof({ weight: 10, arbitrary: fileName }, { weight: 1, arbitrary: fc.constant(null) }),
    filenameStyle: fc.constantFrom('plain' as const, 'plain' as const, 'star' as const),
    contentType: fc.constantFrom('image/png', 'application/octet-stream', 'image/svg+xml', 'text/html', '', 'image/png; charset=ü'),
    file: fc.record({ magic: fc.constantFrom<Magic>('png', 'png', 'jpeg', 'gif', 'mp4', 'exe', 'svg', 'none'), size: fileSize }),
  },
  { requiredKeys: ['name', 'filename', 'file'] },
);

const brokenPart = (part: fc.Arbitrary<MultipartPart>) =>
  fc
    .tuple(part, rarely(fc.constantFrom('no-disposition' as const, 'no-blank-line' as const, 'lf-only' as const), 12))
    .map(([p, broken]) => (broken ? { ...p, broken } : p));

/** What the Upload Files dialog sends: the owner, then one to three files of an allowed type. */
const wellFormedUpload: fc.Arbitrary<MultipartBody> = fc
  .tuple(
    fc.constantFrom(...RECORD_TYPES),
    fc.nat(20),
    fc.array(
      fc.record({
        filename: fc.oneof(
          fc.constantFrom('photo.png', 'IMG_0001.JPG', 'clip.mp4', 'a.gif', 'é😀 café.gif', 'x'.repeat(300) + '.png', 'a"b.png', '%00.png'),
          anyText,
        ),
        magic: fc.constantFrom<Magic>('png', 'jpeg', 'gif', 'mp4'),
        size: fc.integer({ min: 100, max: 20_000 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([entityType, pick, files]) => ({
    parts: [
      { name: 'entityType', value: { text: entityType } },
      { name: 'entityId', value: { id: 'owner' as const, pick } },
      ...files.map((f): MultipartPart => ({
        name: 'files',
        filename: f.filename,
        contentType: 'application/octet-stream',
        file: { magic: f.magic, size: f.size },
      })),
    ],
    boundary: 'fuzzBoundary7MA4YWxk',
    declared: 'same' as const,
    ending: 'proper' as const,
    preamble: '',
  }));

/** A multipart form with broken boundaries, parts and endings mixed in. */
const roughMultipart: fc.Arbitrary<MultipartBody> = fc.record({
  parts: fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(brokenPart(fieldPart), brokenPart(fieldPart), fc.array(brokenPart(filePart), { minLength: 1, maxLength: 3 }))
        .map(([a, b, files]) => [a, b, ...files]),
    },
    { weight: 3, arbitrary: fc.array(brokenPart(fc.oneof(fieldPart, filePart)), { maxLength: 6 }) },
    // Past the part and file limits (30 parts, 20 files, 10 fields).
    {
      weight: 1,
      arbitrary: fc.array(
        fc.oneof(
          fieldPart,
          filePart.map((p) => ({ ...p, file: { magic: 'png' as Magic, size: 16 } })),
        ),
        { minLength: 11, maxLength: 40 },
      ),
    },
  ),
  boundary: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('fuzzBoundary7MA4YWxk', '----WebKitFormBoundaryx7Yy') },
    { weight: 2, arbitrary: fc.constantFrom('a', 'b'.repeat(70), 'c'.repeat(200), 'with space', 'quo"te', 'é-boundary', "'()+_,-./:=?") },
  ),
  declared: fc.constantFrom<MultipartBody['declared']>(
    'same',
    'same',
    'same',
    'same',
    'same',
    'same',
    'quoted',
    'other',
    'missing',
    'empty',
  ),
  ending: fc.constantFrom<MultipartBody['ending']>(
    'proper',
    'proper',
    'proper',
    'proper',
    'proper',
    'no-final-boundary',
    'garbage-after',
    'missing-dashes',
  ),
  preamble: fc.constantFrom('', '', '', '', 'This is a preamble', '--'),
});

/** A multipart body: a third well-formed uploads (so files get stored, listed and served), the rest rough. */
export const multipartBody: fc.Arbitrary<MultipartBody> = fc.oneof(
  { weight: 1, arbitrary: wellFormedUpload },
  { weight: 2, arbitrary: roughMultipart },
);

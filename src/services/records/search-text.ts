/**
 * How record text becomes searchable (docs/decisions/0011-record-search-and-counts.md). Search is a
 * case-insensitive substring match; both the stored text and the query go through `normaliseSearchText`, so the
 * database only ever compares already-lowercased text byte for byte (the same on SQLite and MariaDB, whatever the
 * column collation would have said about accents).
 */

/** Joins the searchable fields of one record; the separator cannot appear in a (trimmed, single-line) query. */
const FIELD_SEPARATOR = '\n';

/** Shortest query the trigram index can narrow; shorter queries fall back to a scan of the compact text table. */
export const GRAM_LENGTH = 3;

export function normaliseSearchText(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export function searchDocument(fields: ReadonlyArray<string | number | null | undefined>): string {
  return normaliseSearchText(
    fields
      .filter((field) => field !== null && field !== undefined && String(field) !== '')
      .map((field) => String(field).replace(/[\r\n]+/g, ' '))
      .join(FIELD_SEPARATOR),
  );
}

/**
 * The distinct trigram keys of an already-normalised text: each trigram as a 32-bit unsigned integer (FNV-1a over
 * its code points). A collision only adds a candidate that the exact substring check then drops, so it can never
 * change a result.
 */
/** gramsOf's working memory, kept between calls: a text's code points, and its table of keys already seen. */
let codePoints = new Uint32Array(256);
let seenKeys = new Uint32Array(512);
let seenStamps = new Uint32Array(512);
let stamp = 0;

export function gramsOf(normalised: string): number[] {
  // The text's code points (a surrogate pair is one), in a buffer kept between calls: an import makes the grams of
  // every contact it adds, and an array per text was a good part of its garbage.
  if (codePoints.length < normalised.length) codePoints = new Uint32Array(normalised.length * 2);
  let length = 0;
  for (let i = 0; i < normalised.length; i++) {
    let code = normalised.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < normalised.length) {
      const low = normalised.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    codePoints[length++] = code;
  }
  // Distinct keys through an open-addressing table kept between calls (a slot counts only if stamped with this call's
  // number): a Set per text was most of an import's allocations after the code points.
  const grams = Math.max(0, length - GRAM_LENGTH + 1);
  if (seenKeys.length < grams * 2) {
    seenKeys = new Uint32Array(2 ** Math.ceil(Math.log2(grams * 2)));
    seenStamps = new Uint32Array(seenKeys.length);
  }
  if (++stamp === 0xffffffff) {
    seenStamps.fill(0);
    stamp = 1;
  }
  const mask = seenKeys.length - 1;
  const keys: number[] = [];
  for (let i = 0; i < grams; i++) {
    let hash = 0x811c9dc5;
    for (let j = i; j < i + GRAM_LENGTH; j++) hash = Math.imul(hash ^ codePoints[j]!, 0x01000193);
    const key = hash >>> 0;
    let slot = key & mask;
    while (seenStamps[slot] === stamp && seenKeys[slot] !== key) slot = (slot + 1) & mask;
    if (seenStamps[slot] !== stamp) {
      seenStamps[slot] = stamp;
      seenKeys[slot] = key;
      keys.push(key);
    }
  }
  return keys;
}

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

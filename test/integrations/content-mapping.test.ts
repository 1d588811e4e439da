import { describe, expect, it } from 'vitest';
import { CONTENT_MODEL, fieldKey, snakeCase } from '@integrations/wordpress/content-model.js';
import { enumKey, mapPost, normaliseEnum, normaliseUrl, plainText } from '@integrations/wordpress/map-post.js';

describe('the content model mapping', () => {
  it('names fields by the snake_case of our column names', () => {
    expect(snakeCase('eventStartDate')).toBe('event_start_date');
    expect(CONTENT_MODEL.professionals.fields.map(fieldKey)).toContain('profession_type');
    expect(fieldKey(CONTENT_MODEL.runclubs.name)).toBe('club_name');
    expect(CONTENT_MODEL.runclubs.restBase).toBe('run-clubs');
  });

  it('decodes entities and strips tags from rendered text', () => {
    expect(plainText('Rock &#8217;n&#8217; Roll <em>Run</em> &#038; Walk &amp; more &#8211; 2027')).toBe(
      'Rock ’n’ Roll Run & Walk & more – 2027',
    );
  });

  it('normalises enum values case- and space-insensitively, with aliases, and nothing else', () => {
    expect(enumKey('  Massage   Therapist ')).toBe('massage-therapist');
    const professions = CONTENT_MODEL.professionals.fields.find((f) => f.column === 'professionType')!;
    if (professions.type !== 'enum') throw new Error('profession type is an enum');
    expect(normaliseEnum('Massage Therapist', professions.values, professions.aliases)).toBe('massage-therapist');
    expect(normaliseEnum('PODIATRIST', professions.values)).toBe('podiatrist');
    expect(normaliseEnum('physio', professions.values, professions.aliases)).toBe('physiotherapist');
    expect(normaliseEnum('Chiropractor', professions.values, professions.aliases)).toBeNull();
  });

  it('adds https:// to URLs without a scheme', () => {
    expect(normaliseUrl('www.example.org/race')).toBe('https://www.example.org/race');
    expect(normaliseUrl('//cdn.example.org/x')).toBe('https://cdn.example.org/x');
    expect(normaliseUrl('http://example.org')).toBe('http://example.org');
  });

  it('maps a post from meta, falls back to acf and to the title, and reports what it cannot use', () => {
    const result = mapPost(CONTENT_MODEL.events, {
      id: 7,
      title: { rendered: 'Harbour &#038; Bridge Half' },
      meta: {
        event_name: '',
        event_start_date: '20270314',
        location_state: 'new south wales',
        run_type: ['Half Marathon', '10K'],
        website_url: 'harbourhalf.example',
        location_lat: '-33.8688',
        featured_race: '1',
      },
      acf: { event_end_date: '2027-03-14 08:00:00', track_type: 'Road, Trail', location_lng: 'east-ish', entry_cost: '$80 &#8211; $120' },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.values).toMatchObject({
      eventName: 'Harbour & Bridge Half',
      eventStartDate: '2027-03-14',
      eventEndDate: '2027-03-14',
      locationState: 'NSW',
      runType: ['half-marathon', '10k'],
      trackType: ['road', 'trail'],
      websiteUrl: 'https://harbourhalf.example',
      locationLat: '-33.86880000',
      locationLng: null,
      featuredRace: true,
      entryCost: '$80 – $120',
      galleryImages: [],
    });
    expect(result.problems).toEqual([
      "Event 'Harbour & Bridge Half' (WordPress id 7): longitude 'east-ish' is not a number between -180 and 180; left empty",
    ]);
    expect(Object.keys(result.values)).not.toContain('notes');
    expect(Object.keys(result.values)).not.toContain('totalAdvertisingSpend');
  });

  it('saves profession and club types outside the list as other, keeping the words with a warning', () => {
    const pro = mapPost(CONTENT_MODEL.professionals, {
      id: 3,
      title: { rendered: 'Kneads &amp; Co' },
      meta: { profession_type: 'Reiki Master', location_state: 'Narnia' },
    });
    expect(pro.ok && pro.values).toMatchObject({ professionType: 'other', professionTypeOther: 'Reiki Master' });
    expect(pro.ok && pro.warnings).toEqual([
      "Professional 'Kneads & Co' (WordPress id 3): profession type 'Reiki Master' is not one of coach, physiotherapist, nutritionist, podiatrist, massage-therapist, trainer, other; saved as other (Reiki Master)",
    ]);
    // An unknown state has no `other`: it is still left empty, an error.
    expect(pro.ok && pro.problems).toEqual([
      "Professional 'Kneads & Co' (WordPress id 3): state 'Narnia' is not one of NSW, VIC, QLD, WA, SA, TAS, ACT, NT, NZ; left empty",
    ]);
    const known = mapPost(CONTENT_MODEL.professionals, { id: 5, title: { rendered: 'P' }, meta: { profession_type: 'Physio' } });
    expect(known.ok && known.values).toMatchObject({ professionType: 'physiotherapist', professionTypeOther: null });
    const club = mapPost(CONTENT_MODEL.runclubs, {
      id: 4,
      title: { rendered: 'X' },
      meta: { club_name: 'Dawn Patrol', club_type: ['Trail', 'Cross Country', ' road ', 'Parkrun'], founded_year: '1850s' },
    });
    expect(club.ok && club.values).toMatchObject({
      clubName: 'Dawn Patrol',
      clubType: ['trail', 'road', 'other'],
      clubTypeOther: ['Cross Country', 'Parkrun'],
      foundedYear: null,
    });
    expect(club.ok && club.problems).toHaveLength(1);
    expect(club.ok && club.warnings).toEqual([
      "Run club 'Dawn Patrol' (WordPress id 4): club type 'Cross Country', 'Parkrun' is not one of trail, road, track, mixed, social, other; saved as other (Cross Country, Parkrun)",
    ]);
  });

  it('rejects a post whose text breaks the text rule, naming the field but never quoting the text', () => {
    const cases = [
      {
        post: { id: 20, title: { rendered: 'Cut \ud83c' } },
        problem: 'Event with WordPress id 20: name contains an invalid character; skipped',
      },
      {
        post: { id: 21, title: { rendered: 'X' }, meta: { event_name: 'a\u0000b' } },
        problem: 'Event with WordPress id 21: name contains an invalid character; skipped',
      },
      {
        post: { id: 22, title: { rendered: 'Fine' }, meta: { entry_cost: '\udc00x' } },
        problem: "Event 'Fine' (WordPress id 22): entry cost contains an invalid character; skipped",
      },
      {
        post: { id: 23, title: { rendered: 'Fine' }, meta: { run_type: ['10K', 'a\u0000b'] } },
        problem: "Event 'Fine' (WordPress id 23): run type contains an invalid character; skipped",
      },
      // Without the rule an unknown state is quoted in its problem, which is stored with the sync run.
      {
        post: { id: 24, title: { rendered: 'Fine' }, acf: { location_state: 'Nar\ud800nia' } },
        problem: "Event 'Fine' (WordPress id 24): state contains an invalid character; skipped",
      },
      {
        post: { id: 25, title: { rendered: 'Fine' }, meta: { website_url: 'x.example/\u0000' } },
        problem: "Event 'Fine' (WordPress id 25): website contains an invalid character; skipped",
      },
    ];
    for (const { post, problem } of cases)
      expect(mapPost(CONTENT_MODEL.events, post), problem).toEqual({ ok: false, wordpressId: post.id, problem });
    const club = mapPost(CONTENT_MODEL.runclubs, { id: 26, title: { rendered: 'Club' }, meta: { club_type: ['trail', '\ud800'] } });
    expect(club).toEqual({
      ok: false,
      wordpressId: 26,
      problem: "Run club 'Club' (WordPress id 26): club type contains an invalid character; skipped",
    });
  });

  it('keeps whole surrogate pairs (emoji) intact', () => {
    const result = mapPost(CONTENT_MODEL.events, {
      id: 30,
      title: { rendered: 'Run &amp; 🏃' },
      meta: { entry_cost: '🏃‍♀️ free', run_type: ['🏃 5K'] },
    });
    expect(result).toMatchObject({
      ok: true,
      name: 'Run & 🏃',
      // Run types are stored as slugs, which keep letters and digits only.
      values: { eventName: 'Run & 🏃', entryCost: '🏃‍♀️ free', runType: ['5k'] },
      problems: [],
    });
  });

  it('rejects a post with neither a name nor a title', () => {
    expect(mapPost(CONTENT_MODEL.runclubs, { id: 9, title: { rendered: '' }, meta: [] })).toEqual({
      ok: false,
      wordpressId: 9,
      problem: 'Run club with WordPress id 9 has no club name and no title; skipped',
    });
  });
});

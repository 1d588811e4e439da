import type { FakeMailchimp } from './mailchimp.js';
import type { FakePost } from './wordpress.js';

/**
 * Deterministic sample content for trying the Integrations page offline: several pages of posts, titles full of
 * the HTML entities WordPress renders, enum values as sites really write them, a few broken items, and both
 * `meta` and `acf` field sources.
 */

const STATES = ['NSW', 'vic', 'Queensland', 'wa', 'South Australia', 'TAS', 'act', 'NT', 'NZ', 'Narnia', ''];
const RUN_TYPES = [['Half Marathon'], ['Marathon', '10K'], ['Cross Country'], ['5K', 'Fun Run'], ['Ultra']];
const TITLES = [
  'City2Surf &#8211; %',
  'Rock &#8217;n&#8217; Roll Run %',
  'Harbour &#038; Bridge %',
  'The &#8220;Big&#8221; Trail %',
  'Coast &amp; Country %',
];
const PROFESSIONS = ['Massage Therapist', 'Podiatrist', 'physio', 'COACH', 'Personal Trainer', 'Reiki Master', 'Sports Dietitian', 'other'];
const CLUB_TYPES = [['Trail'], ['Road', 'social'], ['Track'], ['Mixed'], ['Cross Country'], ['road', 'TRAIL']];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const modified = (i: number) => `2026-${String((i % 10) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}T08:00:00`;

export function sampleEvents(count = 230): FakePost[] {
  return Array.from({ length: count }, (_, i) => {
    const id = 1000 + i;
    const post: FakePost = {
      id,
      title: pick(TITLES, i).replace('%', String(2027 + (i % 3))),
      modifiedGmt: modified(i),
      meta: {
        event_start_date: `2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
        event_end_date: '',
        location_state: pick(STATES, i),
        location_address: `${i + 1} Finish Line Rd`,
        run_type: pick(RUN_TYPES, i),
        website_url: i % 4 === 0 ? `www.race${id}.example` : `https://race${id}.example`,
        featured_race: i % 9 === 0,
        entry_cost: i % 5 === 0 ? '$60 &#8211; $95' : '',
      },
    };
    if (i % 50 === 7) post.meta = { ...post.meta, event_start_date: '31/02/2027' };
    if (i === 111) post.title = '';
    return post;
  });
}

export function sampleProfessionals(count = 140): FakePost[] {
  return Array.from({ length: count }, (_, i) => {
    const useAcf = i % 3 === 0;
    const fields = {
      business_name: i % 7 === 0 ? '' : `Stride ${pick(['Physio', 'Podiatry', 'Coaching', 'Massage'], i)} ${i + 1}`,
      profession_type: pick(PROFESSIONS, i),
      location_state: pick(STATES, i + 3),
      instagram_url: i % 2 ? `instagram.com/stride${i}` : '',
      website_url: `stride${i}.example`,
      specializations: 'Injury rehab, Gait analysis',
    };
    return {
      id: 5000 + i,
      title: `Stride &amp; Co ${i + 1}`,
      modifiedGmt: modified(i),
      meta: useAcf ? {} : fields,
      acf: useAcf ? fields : undefined,
    };
  });
}

export function sampleRunClubs(count = 45): FakePost[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 8000 + i,
    title: `Dawn Patrol &#8211; ${pick(['Bondi', 'St Kilda', 'New Farm', 'Cottesloe', 'Glenelg'], i)} ${i + 1}`,
    modifiedGmt: modified(i),
    meta: {
      club_name: '',
      club_type: pick(CLUB_TYPES, i),
      location_state: pick(STATES, i + 5),
      founded_year: i % 11 === 0 ? 'since forever' : String(1990 + (i % 30)),
      membership_count: String(20 + i * 3),
      meeting_times: ['Tue 6:00am', 'Sat 7:00am'],
      club_email: i % 8 === 0 ? 'not an email' : `club${i}@example.org`,
    },
  }));
}

export function seedMailchimp(mc: FakeMailchimp): void {
  const weekly = mc.addAudience('Runners Weekly', 'runners1');
  mc.addAudience('Race Directors', 'directors1');
  mc.addAudience('Sponsors & Partners', 'sponsors1');
  for (let i = 0; i < 25; i++) mc.addMember(weekly.id, { email_address: `member${i}@example.org`, merge_fields: { FNAME: `Member${i}` } });
  mc.addMember(weekly.id, { email_address: 'unsubscribed@example.org', status: 'unsubscribed' });
}

import type { WordPressMapping } from './define.js';
import { EVENT } from './event.js';
import { PROFESSIONAL } from './professional.js';
import { RUN_CLUB } from './runclub.js';

/**
 * The synced types' WordPress mappings: each definition's fields a sync writes, with their names in sync messages
 * and the choices' other spellings, typed by the definition's field names. Apart from the definitions because only
 * the server reads them (a page's first load carries its definition, not these).
 */

/** Full state and territory names a content website may use instead of the abbreviation. */
const STATE_ALIASES: Readonly<Record<string, string>> = {
  'new-south-wales': 'NSW',
  victoria: 'VIC',
  queensland: 'QLD',
  'western-australia': 'WA',
  'south-australia': 'SA',
  tasmania: 'TAS',
  'australian-capital-territory': 'ACT',
  'northern-territory': 'NT',
  'new-zealand': 'NZ',
};

/** How a sync reads the location fields from a post, and names them in its messages. */
const locationFromWordPress = {
  locationAddress: 'address',
  locationLat: 'latitude',
  locationLng: 'longitude',
  locationState: { label: 'state', aliases: STATE_ALIASES },
} as const;

/** Where events come from on the content website, and what a sync writes (src/integrations/wordpress/). */
export const EVENT_FROM_WORDPRESS = {
  restBase: 'events',
  idField: 'wordpressEventId',
  name: { field: 'eventName', label: 'name' },
  fields: {
    eventStartDate: 'start date',
    eventEndDate: 'end date',
    websiteUrl: 'website',
    ...locationFromWordPress,
    runType: 'run type',
    trackType: 'track type',
    featuredRace: 'featured',
    entryCost: 'entry cost',
    prizes: 'prizes',
    galleryImages: 'gallery images',
  },
} as const satisfies WordPressMapping<keyof typeof EVENT.fields & string>;

/** A site's other words for the profession types. */
const PROFESSION_ALIASES: Readonly<Record<string, string>> = {
  physio: 'physiotherapist',
  physiotherapy: 'physiotherapist',
  'running-coach': 'coach',
  'personal-trainer': 'trainer',
  'massage-therapy': 'massage-therapist',
  'sports-dietitian': 'nutritionist',
  dietitian: 'nutritionist',
};

/** Where professionals come from on the content website, and what a sync writes (src/integrations/wordpress/). */
export const PROFESSIONAL_FROM_WORDPRESS = {
  restBase: 'professionals',
  idField: 'wordpressProfessionalId',
  name: { field: 'businessName', label: 'business name' },
  fields: {
    professionType: { label: 'profession type', aliases: PROFESSION_ALIASES, otherColumn: 'professionTypeOther' },
    contactType: 'contact type',
    trackType: 'track type',
    specializations: 'specializations',
    credentials: 'credentials',
    deliveryMethods: 'delivery methods',
    ...locationFromWordPress,
    websiteUrl: 'website',
    instagramUrl: 'Instagram',
    facebookUrl: 'Facebook',
  },
} as const satisfies WordPressMapping<keyof typeof PROFESSIONAL.fields & string>;

/** Where run clubs come from on the content website, and what a sync writes (src/integrations/wordpress/). */
export const RUN_CLUB_FROM_WORDPRESS = {
  restBase: 'run-clubs',
  idField: 'wordpressClubId',
  name: { field: 'clubName', label: 'club name' },
  fields: {
    ...locationFromWordPress,
    clubType: { label: 'club type', otherColumn: 'clubTypeOther' },
    foundedYear: 'founded year',
    membershipCount: 'membership count',
    meetingTimes: 'meeting times',
    cost: 'cost',
    averageAttendance: 'average attendance',
    websiteUrl: 'website',
    instagramUrl: 'Instagram',
    facebookUrl: 'Facebook',
    founderInstagramUrl: 'founder Instagram',
    clubEmail: 'club email',
    extras: 'extras',
    footnote: 'footnote',
    socialTitle: 'social title',
  },
} as const satisfies WordPressMapping<keyof typeof RUN_CLUB.fields & string>;

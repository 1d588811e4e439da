/**
 * `npm run fakes`: a fake WordPress site and a fake Mailchimp API with sample data, for trying the Integrations
 * page and `pacer sync` offline. Ports: FAKE_WORDPRESS_PORT (default 4020) and FAKE_MAILCHIMP_PORT (default 4010).
 */
import { FakeMailchimp } from './mailchimp.js';
import { sampleEvents, sampleProfessionals, sampleRunClubs, seedMailchimp } from './sample-data.js';
import { FakeWordPress } from './wordpress.js';

const wordpressPort = Number(process.env.FAKE_WORDPRESS_PORT ?? 4020);
const mailchimpPort = Number(process.env.FAKE_MAILCHIMP_PORT ?? 4010);

const wp = await new FakeWordPress({
  posts: { events: sampleEvents(), professionals: sampleProfessionals(), 'run-clubs': sampleRunClubs() },
}).start(wordpressPort);
const mc = await new FakeMailchimp().start(mailchimpPort);
seedMailchimp(mc);

console.log(
  `Fake WordPress: ${wp.url} (${wp.posts.events!.length} events, ${wp.posts.professionals!.length} professionals, ${wp.posts['run-clubs']!.length} run clubs)`,
);
console.log(`Fake Mailchimp: ${mc.baseUrl} (${mc.audiences.size} audiences)`);
console.log('\nPoint the app at them (e.g. in .env), then start it with `npm start`:\n');
console.log(`WORDPRESS_URL=${wp.url}`);
console.log(`WORDPRESS_USER=${wp.user}`);
console.log(`WORDPRESS_APP_PASSWORD="${wp.appPassword}"`);
console.log(`PUBLIC_SITE_URL=${wp.url}`);
console.log(`MAILCHIMP_API_KEY=${mc.apiKey}`);
console.log(`MAILCHIMP_BASE_URL=${mc.baseUrl}`);
console.log('\nCtrl+C stops both.');

const stop = async () => {
  await Promise.all([wp.close(), mc.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

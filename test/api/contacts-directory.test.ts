import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
interface Row {
  id: number;
  firstName: string;
  lastName: string;
  owner: { type: string; id: number; name: string };
}

describe('contacts directory', () => {
  let t: TestApp;
  let agent: Agent;
  const ids: Record<string, number> = {};
  let brandId: number;
  let eventId: number;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    brandId = (await agent.post('/api/brands').send({ brandName: 'Stride Shoes' })).body.id;
    eventId = (await agent.post('/api/events').send({ eventName: 'Harbour Half' })).body.id;
    const add = async (key: string, body: Record<string, unknown>) => {
      const res = await agent.post('/api/contacts').send(body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[key] = res.body.id;
    };
    await add('ana', {
      entityType: 'brand',
      entityId: brandId,
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'ana@stride.example',
      jobTitle: 'Marketing Lead',
      isPrimary: true,
      mailchimpTags: ['vip'],
    });
    await add('bo', {
      entityType: 'brand',
      entityId: brandId,
      firstName: 'Bo',
      lastName: 'Chen',
      phone: '0400 111 222',
      mailchimpTags: ['partner'],
    });
    await add('cy', {
      entityType: 'event',
      entityId: eventId,
      firstName: 'Cy',
      lastName: 'Lima',
      email: 'cy@harbour.example',
      jobTitle: 'Race Director',
    });
  });
  afterAll(async () => t.close());

  const list = async (search: string) => {
    const res = await agent.get(`/api/contacts?${search}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { items: Row[]; total: number };
  };
  const names = async (search: string) => (await list(search)).items.map((c) => c.firstName);

  it('lists every contact of every owner, newest first, each naming its owner', async () => {
    const all = await list('');
    expect(all.total).toBe(3);
    expect(all.items.map((c) => c.firstName)).toEqual(['Cy', 'Bo', 'Ana']);
    expect(all.items[0]!.owner).toEqual({ type: 'event', id: eventId, name: 'Harbour Half' });
    expect(all.items[2]!.owner).toEqual({ type: 'brand', id: brandId, name: 'Stride Shoes' });
  });

  it('searches name, email, phone, job title and tags, without case', async () => {
    expect(await names('q=LIMA')).toEqual(['Cy', 'Ana']);
    expect(await names('q=ana lima')).toEqual(['Ana']);
    expect(await names('q=harbour.example')).toEqual(['Cy']);
    expect(await names('q=111 222')).toEqual(['Bo']);
    expect(await names('q=director')).toEqual(['Cy']);
    expect(await names('q=partner')).toEqual(['Bo']);
    expect(await names('q=100%25')).toEqual([]);
    expect((await list('q=lima')).total).toBe(2);
  });

  it('filters by owner type, tag and primary, and sorts both ways with the id breaking ties', async () => {
    expect(await names('ownerType=event')).toEqual(['Cy']);
    expect(await names('tag=vip')).toEqual(['Ana']);
    expect(await names('tag=vi')).toEqual([]);
    expect(await names('primary=true')).toEqual(['Ana']);
    expect(await names('primary=false&ownerType=brand')).toEqual(['Bo']);
    expect(await names('sort=name')).toEqual(['Bo', 'Ana', 'Cy']);
    expect(await names('sort=name&dir=desc')).toEqual(['Cy', 'Ana', 'Bo']);
    expect(await names('sort=jobTitle&dir=asc')).toEqual(['Bo', 'Ana', 'Cy']);
    expect(await names('sort=email&dir=asc&limit=1&offset=1')).toEqual(['Ana']);
  });

  it('answers 400 for bad parameters, naming what is allowed', async () => {
    for (const [search, message] of [
      ['ownerType=influencer', 'ownerType must be one of: event, professional, runclub, brand, media'],
      ['sort=phone', 'sort must be one of: newest, name, email, jobTitle, updatedAt'],
      ['primary=yes', 'primary must be one of: true, false'],
      ['limit=0', 'limit must be a whole number from 1 to 100'],
    ]) {
      const res = await agent.get(`/api/contacts?${search}`);
      expect(res.status, search).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await t.agent().get('/api/contacts')).status).toBe(401);
  });

  it('renders the /contacts page on the server with each contact linked to its owner', async () => {
    const page = await agent.get('/contacts?q=lima&sort=name');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Contacts</h1>');
    expect(page.text).toContain(`href="/events/${eventId}"`);
    expect(page.text).toContain('Harbour Half');
    expect(page.text).toContain(`href="/contacts/${ids.ana}"`);
    expect(page.text).not.toContain('Bo Chen');
    expect(page.text.indexOf('Ana Lima')).toBeLessThan(page.text.indexOf('Cy Lima'));
    expect(page.text).toContain('href="/contacts"');
    const refused = await agent.get('/contacts?ownerType=influencer');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('ownerType must be one of');
  });

  it('exports the directory as CSV with its search, filters and sort, owners named', async () => {
    const res = await agent
      .get('/api/export/contacts?q=lima&sort=name&dir=desc')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="contacts-2026-11-21.csv"');
    const lines = (res.body as Buffer).subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('First Name,Last Name,Email,Phone,Job Title,Primary,Tags,Owner Type,Owner,Notes,Created At,Updated At,ID');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(' '))).toEqual(['Cy Lima', 'Ana Lima']);
    expect(lines[1]).toContain(',event,Harbour Half,');
    expect(lines[2]).toContain(',yes,vip,brand,Stride Shoes,');
    expect((await agent.get('/api/export/contacts?ownerType=influencer')).status).toBe(400);
  });
  it('exports only the selected contacts when given ids, and refuses a bad id list', async () => {
    const res = await agent
      .get(`/api/export/contacts?sort=name&ids=${ids.cy},${ids.ana}`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const lines = (res.body as Buffer).subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(' '))).toEqual(['Ana Lima', 'Cy Lima']);
    const refused = await agent.get('/api/export/contacts?ids=1,x');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Each id must be a positive whole number');
  });

  it('breaks ties by id, in both directions, whatever the sort', async () => {
    const tied: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await agent.post('/api/contacts').send({
        entityType: 'brand',
        entityId: brandId,
        firstName: 'Tie',
        lastName: 'Same',
        email: 'same@tie.example',
        jobTitle: 'Same Job',
      });
      tied.push(res.body.id as number);
    }
    for (const sort of ['newest', 'name', 'email', 'jobTitle', 'updatedAt']) {
      const order = async (dir: string) => (await list(`q=tie&sort=${sort}&dir=${dir}`)).items.map((c) => c.id);
      expect(await order('asc'), sort).toEqual(tied);
      expect(await order('desc'), sort).toEqual([...tied].reverse());
    }
    // Every sort, both ways, over the whole directory: each row once, and the reverse order reversed.
    for (const sort of ['newest', 'name', 'email', 'jobTitle', 'updatedAt']) {
      const asc = (await list(`sort=${sort}&dir=asc`)).items.map((c) => c.id);
      const desc = (await list(`sort=${sort}&dir=desc`)).items.map((c) => c.id);
      expect(new Set(asc).size, sort).toBe(5);
      expect(desc, sort).toEqual([...asc].reverse());
    }
  });
});

import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { finishedJob } from '../helpers/wait.js';

describe('POST /api/imports (general import as a job)', () => {
  let t: TestApp;
  let agent: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent('imports-general@example.org')).agent;
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    await t.ctx.db('contacts').del();
    await t.ctx.db('influencers').del();
  });

  const finished = (id: number) => finishedJob(agent, id);

  it('runs an uploaded CSV as a job with progress, and serves its report as CSV', async () => {
    const res = await agent
      .post('/api/imports')
      .field('type', 'influencer')
      .field('mapping', JSON.stringify({ Given: 'firstName', Family: 'lastName' }))
      .field('mode', 'upsert')
      .attach('file', Buffer.from('Given,Family,Instagram\nAna,Lima,@ana\n,Nobody,\n'), 'influencers.csv');
    expect(res.status).toBe(202);
    expect(res.body.type).toBe('general-import');
    const job = await finished(res.body.id as number);
    expect(job.state).toBe('succeeded');
    expect(job.progress).toMatchObject({ done: 2, total: 2, phase: 'Finished' });
    expect(job.result).toMatchObject({ counts: { created: 1, failed: 1 } });
    const report = await agent.get(`/api/imports/${job.id}/report.csv`).expect(200);
    expect(report.headers['content-type']).toContain('text/csv');
    expect(
      report.text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(0, 3),
    ).toEqual(['row,outcome,message', '2,created,', '3,failed,First name is required']);
    expect(await t.ctx.db('influencers').pluck('lastName')).toEqual(['Lima']);
  });

  it('warns in the preview (a dry run) of a row that would duplicate a stored record, and only there', async () => {
    const brandId = (await agent.post('/api/brands').send({ brandName: 'Sole Motive' }).expect(201)).body.id as number;
    const reportOf = async (dryRun: boolean) => {
      const res = await agent
        .post('/api/imports')
        .field('type', 'brand')
        .field('mode', 'create')
        .field('dryRun', String(dryRun))
        .attach('file', Buffer.from('Brand Name\nSole Motive Pty Ltd\nA Brand Nobody Has\n'), 'brands.csv')
        .expect(202);
      const job = await finished(res.body.id as number);
      expect(job.state).toBe('succeeded');
      return (await agent.get(`/api/imports/${job.id}/report.csv`).expect(200)).text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(1, 3);
    };
    expect(await reportOf(true)).toEqual([`2,created,Possible duplicate of Sole Motive (id ${brandId}): same name`, '3,created,']);
    expect(await t.ctx.db('brands').where('brandName', 'like', '%Sole Motive%').count({ n: '*' })).toEqual([{ n: 1 }]);
    // The real run creates both, as asked: the warning was the preview's.
    expect(await reportOf(false)).toEqual(['2,created,', '3,created,']);
    await t.ctx.db('brands').del();
  });

  it('takes an XLSX file', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('People');
    sheet.addRow(['First Name', 'Last Name']);
    sheet.addRow(['Bo', 'Ek']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await agent.post('/api/imports').field('type', 'influencer').attach('file', file, 'people.xlsx').expect(202);
    expect((await finished(res.body.id as number)).result).toMatchObject({ counts: { created: 1 } });
  });

  it('answers 400 for bad fields and a mapping the file does not fit, before any job starts', async () => {
    const file = Buffer.from('Name\nX\n');
    const badType = await agent.post('/api/imports').field('type', 'planet').attach('file', file, 'x.csv');
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain('type must be one of');
    const badMap = await agent
      .post('/api/imports')
      .field('type', 'media')
      .field('mapping', '{"Other":"mediaName"}')
      .attach('file', file, 'x.csv');
    expect(badMap.status).toBe(400);
    expect(badMap.body.message).toBe('The mapping names a column the file does not have: Other');
    const noFile = await agent.post('/api/imports').field('type', 'media');
    expect(noFile.status).toBe(400);
    expect((await agent.post('/api/imports').send({ type: 'media' })).status).toBe(400);
    const noBoundary = await agent.post('/api/imports').set('Content-Type', 'multipart/form-data').send('--x\r\n');
    expect(noBoundary.status).toBe(400);
    expect((await agent.get('/api/imports/abc/report.csv')).status).toBe(400);
  });
});

import { describe, expect, it } from 'vitest';
import { browserSuite, openPage } from './harness.js';

describe('/api/docs (real Chromium)', () => {
  const suite = browserSuite();

  it('renders the OpenAPI description from our own files under the strict CSP, without signing in', async () => {
    const watched = await openPage(suite.browser);
    const { page } = watched;
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(suite.server.baseUrl) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    const answer = await page.goto(`${suite.server.baseUrl}/api/docs`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(answer?.headers()['content-security-policy']).not.toContain('unsafe-eval');
    await page.getByRole('heading', { name: /Pacer CRM API/ }).waitFor();
    // An operation of each kind is listed: a record list, a token route, the bearer scheme's Authorize button.
    // Swagger UI draws the operations as they scroll into view: scroll down to each.
    const scrollTo = async (text: string) => {
      const found = page.getByText(text).first();
      await expect
        .poll(
          async () => {
            if (await found.isVisible()) return true;
            await page.mouse.wheel(0, 1500);
            return false;
          },
          { timeout: 45_000 },
        )
        .toBe(true);
    };
    await scrollTo('/api/brands/{id}/history');
    await scrollTo('/api/api-tokens');
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.getByText('OpenAPI.jsonSchemaDialect field contains a value').count()).toBe(0);
    await page.getByRole('button', { name: /Authorize/ }).waitFor();
    expect(outside).toEqual([]);
    watched.assertClean();
    await watched.close();
  });
});

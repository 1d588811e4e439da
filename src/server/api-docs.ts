import { createRequire } from 'node:module';
import path from 'node:path';
import { Router, type Response } from 'express';

/**
 * /api/docs: the OpenAPI description (/api/openapi.json) rendered in the browser by Swagger UI, served from our own
 * origin (swagger-ui-dist, an installed package) so the strict CSP holds: scripts only from 'self', none inline (the
 * start-up call is a file of ours), no eval. Open without signing in, like the description: it holds no data.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pacer CRM API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="api-docs"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

// validatorUrl null: no badge fetched from swagger.io (the CSP would refuse it, and nothing leaves our origin).
const START = `window.SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#api-docs', validatorUrl: null, deepLinking: true, tryItOutEnabled: false });\n`;

/** The package's files we serve: nothing else of its folder is reachable. */
const FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

/** Mounted at /api/docs before the API router (whose last handler answers every other path with 404). */
export function apiDocs(): Router {
  const folder = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cached = (res: Response) => res.setHeader('Cache-Control', 'public, max-age=86400');
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE);
  });
  router.get('/start.js', (_req, res) => {
    cached(res);
    res.type('text/javascript; charset=utf-8').send(START);
  });
  router.get('/:file', (req, res, next) => {
    const type = Object.hasOwn(FILES, req.params.file) ? FILES[req.params.file] : undefined;
    if (!type) return next();
    cached(res);
    res.type(type).sendFile(path.join(folder, req.params.file));
  });
  return router;
}

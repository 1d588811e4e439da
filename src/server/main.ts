// The web server run from source (`node --import tsx src/server/main.ts`). The build bundles serve.ts on its own
// and dist/server.js (launch.ts) starts it from there.
import { runServer } from './serve.js';

runServer();

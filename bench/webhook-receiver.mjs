// A webhook receiver for bench/webhooks.ts, in its own process: answers 204 to every POST and counts them.
import { createServer } from 'node:http';

let received = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('message', () => process.send(received));

import type { CliIO } from './runtime.js';

/** Reads one line from a terminal without echoing it. */
export function readPassword(io: CliIO, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = io.stdin as NodeJS.ReadStream;
    io.stderr.write(prompt);
    let value = '';
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          done();
          io.stderr.write('\n');
          return resolve(value);
        }
        if (ch === '\u0003') {
          done();
          return reject(new Error('Cancelled'));
        }
        if (ch === '\u007f') value = value.slice(0, -1);
        else value += ch;
      }
    };
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
    };
    stdin.on('data', onData);
  });
}

/** `--password-stdin`: the first line of standard input (a pipe, a file, or typed), without its line break. */
export async function readFirstLine(io: CliIO): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.replace(/\r$/, '');
}

import { createInterface } from 'node:readline';
import { CliExit, EXIT, type CliIO } from './runtime.js';

/**
 * The rule for every command that removes data and has no dry run (`db rollback`, `db restore`): say what will go
 * (`plan`, already printed by the caller), then go on with --yes; without it ask on a terminal (y/N, anything but
 * yes refuses), and off a terminal refuse. A refusal exits 2 having changed nothing.
 */
export async function confirmOrRefuse(io: CliIO, options: { yes?: boolean; question: string }): Promise<void> {
  if (options.yes) return;
  if (!io.stdin.isTTY) {
    throw new CliExit(
      EXIT.usage,
      'Nothing was changed: pass --yes to confirm (standard input is not a terminal to ask on).',
      'not_confirmed',
    );
  }
  const answer = await askLine(io, `${options.question} [y/N] `);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliExit(EXIT.usage, 'Cancelled: nothing was changed.', 'not_confirmed');
}

/** One line typed on the terminal (echoed), the prompt on stderr so stdout stays for results. */
function askLine(io: CliIO, prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const reader = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
    let answered = false;
    io.stderr.write(prompt);
    reader.once('line', (line) => {
      answered = true;
      reader.close();
      resolve(line);
    });
    // End of input (Ctrl-D) is a no.
    reader.once('close', () => {
      if (!answered) resolve('');
    });
  });
}

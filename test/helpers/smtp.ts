import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it; `body` is the whole message (headers too) with quoted-printable undone. */
interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  body: string;
}

/** The quoted-printable body as plain text (soft line breaks joined, =3D decoded). */
const plain = (body: string) => body.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

export interface MailCatcher {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A local SMTP server (the real protocol, no TLS, no sign-in) that keeps every message it receives, in order. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const body = plain(raw);
        received.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: /^Subject: (.*)$/m.exec(body)?.[1] ?? '',
          body,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/**
 * A tiny SMTP server on 127.0.0.1 for tests of the mail the server sends: it accepts every
 * message (AUTH PLAIN included), keeps what it was sent, and decodes each message's subject and
 * base64 text so a test reads them as a person would.
 */
import { createServer, type Server } from 'node:net';

interface ReceivedMail {
  /** The envelope's sender and recipient, and the AUTH PLAIN identity if one was given. */
  from: string;
  to: string;
  auth: string | null;
  subject: string;
  text: string;
}

export interface SmtpServer {
  port: number;
  mails: ReceivedMail[];
  /** Waits (without sleeping on time) until `count` mails have arrived. */
  received(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([^?]+)\?=/g, (_, b64: string) =>
    Buffer.from(b64, 'base64').toString('utf8'),
  );
}

function parse(data: string, envelope: { from: string; to: string; auth: string | null }): ReceivedMail {
  const [head = '', body = ''] = data.split('\r\n\r\n');
  const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
  const text = Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8');
  return { ...envelope, subject: decodeHeader(subject), text };
}

export async function startSmtpServer(): Promise<SmtpServer> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((socket) => {
    const envelope = { from: '', to: '', auth: null as string | null };
    let buffer = '';
    let data: string | null = null;
    socket.write('220 test.smtp ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line !== '.') {
            data += `${line}\r\n`;
            continue;
          }
          mails.push(parse(data, envelope));
          data = null;
          socket.write('250 queued\r\n');
          for (const wake of waiters.splice(0)) wake();
          continue;
        }
        const verb = line.split(' ')[0]?.toUpperCase();
        if (verb === 'EHLO') socket.write('250-test.smtp\r\n250 AUTH PLAIN\r\n');
        else if (verb === 'AUTH') {
          envelope.auth =
            Buffer.from(line.split(' ')[2] ?? '', 'base64')
              .toString('utf8')
              .split('\0')[1] ?? '';
          socket.write('235 ok\r\n');
        } else if (verb === 'MAIL') {
          envelope.from = /<(.*)>/.exec(line)?.[1] ?? '';
          socket.write('250 ok\r\n');
        } else if (verb === 'RCPT') {
          envelope.to = /<(.*)>/.exec(line)?.[1] ?? '';
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          data = '';
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('502 not here\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    mails,
    async received(count) {
      while (mails.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

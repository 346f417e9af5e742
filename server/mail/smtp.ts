/**
 * A minimal SMTP client over node:net and node:tls (RFC 5321), enough to send one plain-text
 * message to one recipient: the password reset links (docs/decisions/0043-account-safety.md).
 * `smtps://` speaks TLS from the first byte; `smtp://` upgrades with STARTTLS, which it requires
 * except towards a loopback relay. A password is only ever sent over TLS or to loopback.
 */
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface SmtpConfig {
  host: string;
  port: number;
  /** `smtps://`: TLS from the start. */
  implicitTls: boolean;
  username?: string;
  password?: string;
  /** The sender's address, the From header and the envelope's. */
  from: string;
  timeoutMs: number;
}

const plainAddress = /^[^\s<>@",;]{1,64}@[^\s<>@",;]{1,190}$/;

/**
 * Reads SMTP_URL (`smtps://user:password@host:465`, `smtp://user:password@host:587`) and
 * SMTP_FROM; a string says what is wrong with them.
 */
export function parseSmtpSettings(url: string, from: string, timeoutMs: number): SmtpConfig | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'SMTP_URL must be a URL such as smtps://user:password@mail.example.com:465';
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    return 'SMTP_URL must start with smtp:// (STARTTLS) or smtps:// (TLS)';
  }
  if (!parsed.hostname) return 'SMTP_URL must name a host';
  if (!plainAddress.test(from)) return 'SMTP_FROM must be a plain email address (no name, no <>)';
  const implicitTls = parsed.protocol === 'smtps:';
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : implicitTls ? 465 : 587,
    implicitTls,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    from,
    timeoutMs,
  };
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));

interface Reply {
  code: number;
  lines: string[];
}

/** Replies read off one socket: multi-line replies (`250-...`) gathered up to their last line. */
function replies(socket: Socket) {
  let buffer = '';
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      queue.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
    wake?.();
  };
  const onFailure = (err?: Error) => {
    failure ??= err ?? new Error('the mail server closed the connection');
    wake?.();
  };
  socket.on('data', onData);
  socket.on('error', onFailure);
  socket.on('close', () => onFailure());
  return {
    async next(): Promise<Reply> {
      const lines: string[] = [];
      for (;;) {
        while (queue.length === 0) {
          if (failure) throw failure;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
        const line = queue.shift() as string;
        lines.push(line.slice(4));
        if (line[3] !== '-') return { code: Number(line.slice(0, 3)), lines };
      }
    },
    detach() {
      socket.off('data', onData);
    },
  };
}

/** A header's text: as it is in ASCII, else RFC 2047's UTF-8 base64 encoded word. */
function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** The message: headers, then the UTF-8 text in base64 lines of 76 (no line can start with a dot). */
function message(config: SmtpConfig, to: string, subject: string, text: string, now: Date): string {
  const body = Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  const domain = config.from.split('@')[1];
  return [
    `From: ${config.from}`,
    `To: ${to}`,
    `Subject: ${headerText(subject)}`,
    `Date: ${now.toUTCString()}`,
    `Message-ID: <${now.getTime()}.${Math.random().toString(36).slice(2)}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    body,
  ].join('\r\n');
}

/**
 * Sends one message; resolves once the server accepted it (250 after DATA), rejects with the
 * server's reply or the connection's failure. The whole exchange has `timeoutMs`.
 *
 * @example
 * await sendMail(config, 'owner@shop.cm', 'Reset your password', 'Open this link: …');
 */
export async function sendMail(config: SmtpConfig, to: string, subject: string, text: string): Promise<void> {
  if (!plainAddress.test(to)) throw new Error('the recipient is not a plain email address');
  let socket: Socket = config.implicitTls
    ? connectTls({ host: config.host, port: config.port, servername: config.host })
    : connectTcp({ host: config.host, port: config.port });
  const timer = setTimeout(
    () => socket.destroy(new Error('the mail server did not answer in time')),
    config.timeoutMs,
  );
  try {
    let reader = replies(socket);
    const expect = async (codes: number[], command?: string): Promise<Reply> => {
      if (command !== undefined) socket.write(`${command}\r\n`);
      const reply = await reader.next();
      if (!codes.includes(reply.code)) {
        throw new Error(
          `the mail server answered ${reply.code} ${reply.lines.join(' ')} to ${command?.split(' ')[0] ?? 'the connection'}`,
        );
      }
      return reply;
    };
    await expect([220]);
    let hello = await expect([250], 'EHLO payments-api');
    let secure = config.implicitTls;
    if (!secure && hello.lines.some((line) => /^STARTTLS\b/i.test(line))) {
      await expect([220], 'STARTTLS');
      reader.detach();
      socket = connectTls({ socket, servername: config.host });
      reader = replies(socket);
      secure = true;
      hello = await expect([250], 'EHLO payments-api');
    }
    if (!secure && !isLoopback(config.host)) throw new Error('the mail server offers no STARTTLS');
    if (config.username !== undefined) {
      const credentials = Buffer.from(`\0${config.username}\0${config.password ?? ''}`, 'utf8').toString(
        'base64',
      );
      await expect([235], `AUTH PLAIN ${credentials}`);
    }
    await expect([250], `MAIL FROM:<${config.from}>`);
    await expect([250, 251], `RCPT TO:<${to}>`);
    await expect([354], 'DATA');
    await expect([250], `${message(config, to, subject, text, new Date())}\r\n.`);
    socket.write('QUIT\r\n');
  } finally {
    clearTimeout(timer);
    socket.end();
  }
}

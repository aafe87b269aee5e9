import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { BackendContext, EmulatorBackend } from './backend';
import { HOST, INBOX_URL, LOCAL_SMTP_URI, PORTS } from './env';

// The developer's inbox: a real SMTP server (smtp-server, by nodemailer's author) that the local
// `sendMail` function sends to, and a page listing what it received, newest first. `npm start`
// prints its URL; `npm test` reads its JSON to check a real SMTP exchange. It keeps the last
// KEEP messages in memory (a test run sends thousands; nothing is written to disk). It refuses mail
// to throttled.test (421, twice) and refused.test (550) like a provider would (throttlingPolicy).

const KEEP = 2000;

export interface ReceivedMail {
  id: number;
  /** The envelope: MAIL FROM and RCPT TO, as the SMTP exchange carried them. */
  from: string;
  to: string[];
  subject: string;
  /** ISO 8601, when it arrived. */
  receivedAt: string;
  text: string;
  html: string;
}

/** Refuses a recipient with an SMTP reply (tests make a server that fails), or accepts it (null). */
export type RecipientPolicy = (address: string) => { code: number; message: string } | null;

/** Refusals to a throttled address before it is accepted: the first two tries of each get 421. */
export const THROTTLED_TRIES = 2;
/** Addresses the local inbox tracks for throttling; beyond it the oldest are forgotten. */
const TRACKED = 10_000;

/**
 * The local inbox's stand-in for a provider that refuses (issue 58), so the shop's retries are
 * tested end to end: any address at `throttled.test` is refused with 421 (a temporary refusal, as
 * a provider under load or past a rate limit answers) for its first THROTTLED_TRIES tries, counted
 * per recipient, then accepted; any address at `refused.test` is refused with 550 (no such
 * mailbox), always. `.test` names reach no real mailbox (RFC 2606).
 */
export function throttlingPolicy(): RecipientPolicy {
  const tries = new Map<string, number>();
  return (address) => {
    const lower = address.toLowerCase();
    const domain = lower.slice(lower.lastIndexOf('@') + 1);
    if (domain === 'refused.test') return { code: 550, message: '5.1.1 No such mailbox here (refused.test refuses every mail)' };
    if (domain !== 'throttled.test') return null;
    const n = (tries.get(lower) ?? 0) + 1;
    tries.delete(lower); // re-inserted last: the map's order is the oldest first
    tries.set(lower, n);
    if (tries.size > TRACKED) tries.delete(tries.keys().next().value!);
    return n <= THROTTLED_TRIES ? { code: 421, message: `4.7.0 Try again later (throttled.test refuses the first ${THROTTLED_TRIES} tries; this was try ${n})` } : null;
  };
}

export interface Inbox {
  smtpUri: string;
  /** The page (and `/messages.json`); null when started without one. */
  url: string | null;
  messages(): ReceivedMail[];
  /** Resolves once a message to `to` whose subject contains `subject` arrived (or rejects after `timeoutMs`). */
  waitFor(to: string, subject: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

export interface InboxOptions {
  smtpPort: number;
  /** The page's port; null for none (a test's own server). */
  httpPort: number | null;
  recipients?: RecipientPolicy;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Mail a page lists: a test run sends thousands, and a page of them all took Chromium minutes to load. */
const PAGE_SIZE = 50;

interface PageView {
  /** Newest first: the page's part of what matched. */
  shown: ReceivedMail[];
  matched: number;
  to: string;
  /** The id to list from for the next (older) page, if any. */
  older: number | null;
}

/** The newest PAGE_SIZE messages (to `to`, if given) older than message `before`. */
export function pageOf(newestFirst: ReceivedMail[], query: URLSearchParams): PageView {
  const to = query.get('to')?.trim().toLowerCase() ?? '';
  const before = Number(query.get('before')) || Infinity;
  const matching = newestFirst.filter((m) => !to || m.to.some((address) => address.toLowerCase() === to));
  const from = matching.filter((m) => m.id < before);
  const shown = from.slice(0, PAGE_SIZE);
  return { shown, matched: matching.length, to, older: from.length > PAGE_SIZE ? shown[shown.length - 1]!.id : null };
}

function page({ shown, matched, to, older }: PageView, smtpUri: string): string {
  const rows = shown
    .map((m) => `<li>
  <details>
    <summary><time datetime="${m.receivedAt}">${escapeHtml(new Date(m.receivedAt).toLocaleString())}</time> <strong>${escapeHtml(m.subject || '(no subject)')}</strong> <span>to ${escapeHtml(m.to.join(', '))}</span></summary>
    <p class="meta">From ${escapeHtml(m.from)}</p>
    ${m.html ? `<iframe title="${escapeHtml(m.subject)} (HTML)" sandbox loading="lazy" srcdoc="${escapeHtml(m.html)}"></iframe>` : ''}
    <pre>${escapeHtml(m.text)}</pre>
  </details>
</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bookstore: the developer's inbox</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #1f2937; }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  ol { list-style: none; padding: 0; }
  li { border-top: 1px solid #e5e7eb; padding: .5rem 0; }
  summary { cursor: pointer; display: flex; flex-wrap: wrap; gap: .25rem .75rem; }
  time, .meta, summary span { color: #4b5563; font-size: .875rem; }
  iframe { width: 100%; height: 20rem; border: 1px solid #e5e7eb; background: #fff; }
  pre { white-space: pre-wrap; background: #f9fafb; padding: .5rem; }
  input { font: inherit; padding: .25rem .5rem; max-width: 100%; }
  button { font: inherit; padding: .25rem .75rem; }
</style>
</head>
<body>
<h1>The developer's inbox</h1>
<p>Mail the local shop sent (SMTP server ${escapeHtml(smtpUri)}), newest first; nothing leaves this machine. <a href="/">Refresh</a></p>
<form method="get" action="/"><label>To <input type="email" name="to" value="${escapeHtml(to)}" placeholder="reader@example.com"></label> <button>Show</button></form>
${shown.length ? `<p>${matched === shown.length ? `${matched}` : `${shown.length} of ${matched}`} message${matched === 1 ? '' : 's'}${to ? ` to ${escapeHtml(to)}` : ''}.</p>\n<ol>\n${rows}\n</ol>` : `<p>${to ? `No mail to ${escapeHtml(to)}.` : 'No mail yet. Place an order in the shop, or sign up for the newsletter.'}</p>`}
${older === null ? '' : `<p><a href="/?${new URLSearchParams({ ...(to ? { to } : {}), before: String(older) })}">Older mail</a></p>`}
</body>
</html>
`;
}

/** Starts the SMTP server (and the page, if `httpPort` is given) on 127.0.0.1. Port 0: any free port. */
export async function startInbox({ smtpPort, httpPort, recipients }: InboxOptions): Promise<Inbox> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let next = 1;
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'], // plain SMTP on loopback: a self-signed STARTTLS would fail nodemailer's certificate check
    authOptional: true,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'local' }), // any credentials: it is the developer's machine
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const refusal = recipients?.(address.address);
      if (refusal) callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            id: next++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            receivedAt: new Date().toISOString(),
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          if (received.length > KEEP) received.splice(0, received.length - KEEP);
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(smtpPort, HOST, () => resolve());
  });
  const smtpUri = `smtp://${HOST}:${(smtp.server.address() as AddressInfo).port}`;
  const newestFirst = () => [...received].reverse();

  let http: Server | null = null;
  if (httpPort !== null) {
    http = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://inbox');
      if (req.method !== 'GET') {
        res.writeHead(405, { Allow: 'GET' }).end();
      } else if (url.pathname === '/messages.json') {
        const to = url.searchParams.get('to')?.toLowerCase();
        const list = newestFirst().filter((m) => !to || m.to.some((address) => address.toLowerCase() === to));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(list));
      } else if (url.pathname === '/') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'" }).end(page(pageOf(newestFirst(), url.searchParams), smtpUri));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve, reject) => {
      http!.once('error', reject);
      http!.listen(httpPort, HOST, () => resolve());
    });
  }

  const find = (to: string, subject: string) => received.find((m) => m.to.some((a) => a.toLowerCase() === to.toLowerCase()) && m.subject.includes(subject));
  return {
    smtpUri,
    url: http ? `http://${HOST}:${(http.address() as AddressInfo).port}` : null,
    messages: newestFirst,
    waitFor(to, subject, timeoutMs = 30_000) {
      const found = find(to, subject);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const match = find(to, subject);
          if (!match) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(match);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No mail to ${to} with "${subject}" arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    async stop() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      if (http) await new Promise<void>((resolve) => http!.close(() => resolve()));
    },
  };
}

/** The suite's inbox on this slot's ports: the `sendMail` function's SMTP_URI is LOCAL_SMTP_URI. */
export async function startDevInbox(_ctx: BackendContext): Promise<EmulatorBackend> {
  const inbox = await startInbox({ smtpPort: PORTS.smtp, httpPort: PORTS.inbox, recipients: throttlingPolicy() });
  return {
    label: `Mail:      the developer's inbox (smtp-server) on ${LOCAL_SMTP_URI}; what it received: ${INBOX_URL}`,
    save: async () => {},
    stop: () => inbox.stop(),
  };
}

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bodyParser from 'body-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_JSON_BYTES } from '../config';
import { deferBodyParseErrors, wrapFactory } from './body-parse-errors';
import { signAdminToken } from './jwt';

// The staff uploads check the admin token's signature before reading: the test signs with its own key.
const SECRET = 'k'.repeat(48);
process.env.ADMIN_JWT_SECRET = SECRET;
const staff = { Authorization: `Bearer ${signAdminToken('owner', 0, SECRET, 3600)}` };

// The real body-parser behind a plain HTTP server, wrapped the way the Functions runtime's is:
// oversize bodies must be answered 413 by the wrapper, before any parser sees them.

let server: Server;
let port = 0;
let parsed = 0;

beforeAll(async () => {
  const rawBodySaver = (req: { rawBody?: Buffer }, _res: unknown, buf: Buffer) => (req.rawBody = buf);
  const chain = [
    wrapFactory(bodyParser.json as never)({ limit: '32mb', verify: rawBodySaver }),
    wrapFactory(bodyParser.raw as never)({ limit: '32mb', verify: rawBodySaver, type: '*/*' }),
  ];
  server = createServer((req, res) => {
    const run = (i: number) => {
      if (i === chain.length) {
        const r = req as typeof req & { rawBody?: Buffer; bodyError?: unknown };
        if (r.rawBody) parsed += 1;
        res.end(JSON.stringify({ app: true, bytes: r.rawBody?.length ?? 0, bodyError: r.bodyError ?? null }));
        return;
      }
      chain[i]!(req as never, res, (err) => (err ? res.writeHead(500).end() : run(i + 1)));
    };
    run(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

function send(path: string, body: Buffer, headers: Record<string, string>, chunked = false): Promise<{ status: number; body: { message?: string; bytes?: number; bodyError?: unknown } }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: chunked ? headers : { ...headers, 'Content-Length': String(body.length) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    if (chunked) for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
    else req.write(body);
    req.end();
  });
}

const json = (bytes: number) => Buffer.from(JSON.stringify({ pad: 'x'.repeat(bytes) }));

describe('body limits before parsing', () => {
  it('refuses a JSON body over 100 KB by its Content-Length, without parsing it', async () => {
    const before = parsed;
    const res = await send('/api/books/create-book', json(MAX_JSON_BYTES), { 'Content-Type': 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request body is too large' });
    expect(parsed).toBe(before);
  });

  it('refuses a chunked body (no Content-Length) as soon as its bytes pass the limit', async () => {
    const res = await send('/api/books/create-book', json(3 * 1024 * 1024), { 'Content-Type': 'application/json' }, true);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request body is too large');
  });

  it('lets a body within the limit through to the parser, chunked or not', async () => {
    const small = json(MAX_JSON_BYTES - 100);
    for (const chunked of [false, true]) {
      const res = await send('/api/books/create-book', small, { 'Content-Type': 'application/json' }, chunked);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ app: true, bytes: small.length, bodyError: null });
    }
  });

  it('gives the cover route 2 MB of multipart, and only multipart', async () => {
    const form = Buffer.alloc(2 * 1024 * 1024, 'a');
    const ok = await send('/api/books/cover', form, { 'Content-Type': 'multipart/form-data; boundary=x', ...staff }, true);
    expect(ok.status).toBe(200);
    expect(ok.body.bytes).toBe(form.length);
    const tooBig = await send('/api/books/cover', Buffer.concat([form, Buffer.alloc(128 * 1024)]), { 'Content-Type': 'multipart/form-data; boundary=x', ...staff });
    expect(tooBig).toEqual({ status: 413, body: { message: 'Cover image must be at most 2 MB' } });
    const asJson = await send('/api/books/cover', json(200 * 1024), { 'Content-Type': 'application/json' });
    expect(asJson.status).toBe(413);
  });

  it('refuses a body in any charset but UTF-8 with 415, unread; UTF-8 named or not passes', async () => {
    const before = parsed;
    const utf16 = Buffer.from(JSON.stringify({ title: 'x' }), 'utf16le');
    for (const type of ['application/json; charset=utf-16le', 'application/json;charset="ISO-8859-1"', 'text/csv; charset=latin1', 'application/json; charset=utf8']) {
      const res = await send('/api/orders', utf16, { 'Content-Type': type });
      expect(res, type).toEqual({ status: 415, body: { message: 'Request bodies must be UTF-8 (charset=utf-8)' } });
    }
    expect(parsed).toBe(before);
    for (const type of ['application/json', 'application/json; charset=UTF-8']) {
      expect((await send('/api/orders', json(10), { 'Content-Type': type })).body.bodyError, type).toBeNull();
    }
  });

  it('answers an upload without a valid staff token 401 before reading its body', async () => {
    const before = parsed;
    const form = Buffer.alloc(1024 * 1024, 'a');
    const forged = { Authorization: `Bearer ${signAdminToken('owner', 0, 'x'.repeat(48), 3600)}` };
    for (const [path, type] of [['/api/books/cover', 'multipart/form-data; boundary=x'], ['/api/books/import', 'text/csv']] as const) {
      expect(await send(path, form, { 'Content-Type': type }, true)).toEqual({ status: 401, body: { message: 'Admin token required' } });
      expect(await send(path, form, { 'Content-Type': type, ...forged })).toEqual({ status: 401, body: { message: 'Invalid or expired admin token' } });
    }
    expect(parsed).toBe(before);
    expect((await send('/api/books/import', Buffer.from('title\n'), { 'Content-Type': 'text/csv', ...staff })).status).toBe(200);
  });

  it('records a parse error for the app to answer as JSON instead of the runtime answering HTML', async () => {
    const res = await send('/api/books/create-book', Buffer.from('{"title":'), { 'Content-Type': 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body.bodyError).toEqual({ status: 400, type: 'entity.parse.failed' });
  });
});

describe('the start-up assertion (deferBodyParseErrors)', () => {
  // A fake runtime folder with its own body-parser: the patch must apply to it, or say why.
  function runtime(name: string, bodyParserSource: string): string {
    const dir = mkdtempSync(join(tmpdir(), `${name}-`));
    mkdirSync(join(dir, 'node_modules', 'body-parser'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'body-parser', 'index.js'), bodyParserSource);
    writeFileSync(join(dir, 'main.js'), '');
    return join(dir, 'main.js');
  }
  const factories = (names: string[], middleware = '(req, res, next) => next()') =>
    `module.exports = { ${names.map((n) => `${n}: () => ${middleware}`).join(', ')} };`;
  const ALL = ['json', 'text', 'urlencoded', 'raw'];

  it('wraps every factory of the runtime’s body-parser', () => {
    const main = runtime('functions-framework', factories(ALL));
    deferBodyParseErrors(main);
    const bodyParser = createRequire(main)('body-parser') as Record<string, Record<symbol, unknown>>;
    for (const name of ALL) expect(bodyParser[name]![Symbol.for('bookstore.bodyParserWrapped')], name).toBe(true);
  });

  it('refuses to start under a pre-parsing runtime when a factory is missing or no longer builds a middleware', () => {
    expect(() => deferBodyParseErrors(runtime('functions-framework', factories(['json', 'text', 'urlencoded'])))).toThrow(/body-parser\.raw is not a function/);
    expect(() => deferBodyParseErrors(runtime('functions-framework', factories(ALL, '({ parse: true })')))).toThrow(/no longer returns a \(req, res, next\) middleware/);
    expect(() => deferBodyParseErrors(join(tmpdir(), 'functions-framework-nowhere', 'main.js'))).toThrow(/body-parser not found/);
  });

  it('logs the failure as an error elsewhere', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    deferBodyParseErrors(runtime('plain-node', factories(['json'])));
    expect(error).toHaveBeenCalledWith(expect.stringContaining('Body limits could not be installed'));
    error.mockRestore();
  });
});

import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

// A tiny static server for the original app's built dist/ (BOOKSTORE_ORIGINAL_DIST): files as they
// are, gzip like Hosting, index.html for every other path (an SPA). It serves nothing but that folder.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp',
  '.gif': 'image/gif', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2', '.txt': 'text/plain',
};
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;

export interface StaticServer {
  url: string;
  stop(): Promise<void>;
}

export async function serveStatic(dir: string): Promise<StaticServer> {
  const root = normalize(dir);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep) && file !== root) file = root;
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    let body = readFileSync(file);
    const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': 'no-cache' };
    if (COMPRESSIBLE.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = gzipSync(body);
      headers['Content-Encoding'] = 'gzip';
    }
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

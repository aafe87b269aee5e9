import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { base } from './helpers';

// Issue 25 item 2, measured where production runs it (functions-framework, in this process): a slow
// 5 MB upload without a valid staff token is answered 401 while most of its body is still unsent.

const MB = 1024 * 1024;

/** Sends `total` bytes in 64 KB pieces, one every 10 ms; resolves with the answer and how much had been sent by then. */
function slowUpload(path: string, type: string, headers: Record<string, string>, total = 5 * MB) {
  return new Promise<{ status: number; body: unknown; sentBeforeAnswer: number }>((resolve, reject) => {
    const url = new URL(path, base());
    let sent = 0;
    let sentBeforeAnswer = -1;
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'Content-Type': type, ...headers } }, (res) => {
      sentBeforeAnswer = sent;
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => { try { resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), sentBeforeAnswer }); } catch { reject(new Error(`${res.statusCode}: ${text}`)); } });
    });
    req.on('error', (error) => (sentBeforeAnswer >= 0 ? undefined : reject(error)));
    const piece = Buffer.alloc(64 * 1024, 'a');
    const timer = setInterval(() => {
      if (sentBeforeAnswer >= 0 || sent >= total) {
        clearInterval(timer);
        req.end();
        return;
      }
      req.write(piece);
      sent += piece.length;
    }, 10);
  });
}

describe('staff uploads are refused before their body is read', () => {
  for (const [path, type] of [['/api/books/import', 'text/csv'], ['/api/books/cover', 'multipart/form-data; boundary=x']] as const) {
    it(`${path}: no token, then a forged one -> 401 before 1 MB of 5 MB is sent`, async () => {
      const anonymous = await slowUpload(path, type, {});
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: 'Admin token required' });
      const forged = await slowUpload(path, type, { Authorization: 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl' });
      expect(forged.status).toBe(401);
      console.log(`${path}: 401 after ${(anonymous.sentBeforeAnswer / MB).toFixed(2)} MB (no token), ${(forged.sentBeforeAnswer / MB).toFixed(2)} MB (forged) of 5 MB`);
      expect(anonymous.sentBeforeAnswer).toBeLessThan(MB);
      expect(forged.sentBeforeAnswer).toBeLessThan(MB);
    });
  }
});

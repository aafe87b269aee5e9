import { createHash } from 'node:crypto';
import Busboy from 'busboy';
import type { Request } from 'express';
import { COVER_TOO_LARGE_MESSAGE, COVER_WRONG_TYPE_MESSAGE, MAX_COVER_BYTES, UPLOADED_COVER } from '@bookstore/contract';
import { MULTIPART_OVERHEAD_BYTES } from '../config';
import { bucket } from '../lib/firebase';
import { HttpError } from '../lib/http-error';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface ImageType {
  ext: 'png' | 'jpg' | 'gif' | 'webp';
  contentType: string;
}

/** The image type from the file's first bytes; the client's name and type are not trusted. */
export function sniffImage(bytes: Buffer): ImageType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { ext: 'png', contentType: 'image/png' };
  if (starts(0xff, 0xd8, 0xff)) return { ext: 'jpg', contentType: 'image/jpeg' };
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return { ext: 'gif', contentType: 'image/gif' };
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return { ext: 'webp', contentType: 'image/webp' };
  return null;
}

/** Reads the single `cover` file of a multipart body (already buffered by the Functions runtime). */
export function readCoverFile(req: Request): Promise<Buffer> {
  if (!req.is('multipart/form-data')) throw new HttpError(415, 'Content-Type must be multipart/form-data');
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (!raw) throw new HttpError(400, 'Upload body is missing');
  if (raw.length > MAX_COVER_BYTES + MULTIPART_OVERHEAD_BYTES) throw new HttpError(413, COVER_TOO_LARGE_MESSAGE);
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({ headers: req.headers, limits: { files: 1, fileSize: MAX_COVER_BYTES, fields: 10, parts: 12 } });
    } catch {
      throw new HttpError(400, 'Upload body is not valid multipart/form-data');
    }
    let file: Buffer | null = null;
    let failure: HttpError | null = null;
    parser.on('file', (field, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (failure ??= new HttpError(413, COVER_TOO_LARGE_MESSAGE)));
      stream.on('end', () => {
        if (field !== 'cover') failure ??= new HttpError(400, 'Send the image in a field named cover');
        else if (file) failure ??= new HttpError(400, 'Send a single cover image');
        else file = Buffer.concat(chunks);
      });
    });
    parser.on('filesLimit', () => (failure ??= new HttpError(400, 'Send a single cover image')));
    parser.on('error', () => reject(new HttpError(400, 'Upload body is not valid multipart/form-data')));
    parser.on('close', () => {
      if (failure) return reject(failure);
      if (!file || file.length === 0) return reject(new HttpError(400, 'Choose a cover image to upload'));
      resolve(file);
    });
    parser.end(raw);
  });
}

/** The stored name of a cover: derived from its bytes, so the same image is stored once. */
export function coverName(bytes: Buffer, type: ImageType): string {
  return `covers/${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${type.ext}`;
}

/** Stores a cover under a name derived from its bytes, so the same image is stored once. */
export async function saveCover(bytes: Buffer): Promise<string> {
  const type = sniffImage(bytes);
  if (!type) throw new HttpError(415, COVER_WRONG_TYPE_MESSAGE);
  const name = coverName(bytes, type);
  await bucket().file(name).save(bytes, {
    resumable: false,
    contentType: type.contentType,
    metadata: { cacheControl: IMMUTABLE },
  });
  return name;
}

export async function readCover(name: string): Promise<{ bytes: Buffer; contentType: string } | null> {
  const path = `covers/${name}`;
  if (!UPLOADED_COVER.test(path)) return null;
  const file = bucket().file(path);
  try {
    const [bytes] = await file.download();
    const type = sniffImage(bytes);
    return type ? { bytes, contentType: type.contentType } : null;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return null;
    throw error;
  }
}

/** Deletes an uploaded cover; true when it was one of ours (a bundled cover name is no object). */
export async function deleteCover(path: string): Promise<boolean> {
  if (!UPLOADED_COVER.test(path)) return false;
  await bucket().file(path).delete({ ignoreNotFound: true });
  return true;
}

export { IMMUTABLE };

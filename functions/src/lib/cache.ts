import type { Request, Response } from 'express';

/**
 * Catalogue reads may sit in Hosting's CDN for a minute; a request with credentials (the admin
 * browsing after an edit) is answered privately, so it always sees its own writes.
 */
export function catalogueCache(req: Request, res: Response): void {
  res.vary('Authorization');
  if (req.headers.authorization) res.set('Cache-Control', 'private, no-store');
  else res.set('Cache-Control', 'public, max-age=0, s-maxage=60');
}

export function noStore(res: Response): void {
  res.set('Cache-Control', 'private, no-store');
}

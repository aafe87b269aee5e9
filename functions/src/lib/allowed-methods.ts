import type { RequestHandler, Router } from 'express';
import { HttpError } from './http-error';

// The parts of Express 5's router (the `router` package) read here: its layers match a path
// without side effects and name the methods of their route, or hold a mounted router.
interface RouterLayer {
  match(path: string): false | { path: string };
  route?: { _methods(): string[] };
  handle: { stack?: RouterLayer[] };
}

/** Every method some route of `stack` answers at `path` (mounted routers included), HEAD with GET. */
export function allowedMethods(stack: RouterLayer[], path: string): Set<string> {
  const methods = new Set<string>();
  for (const layer of stack) {
    const match = layer.match(path);
    if (!match) continue;
    if (layer.route) layer.route._methods().forEach((method) => methods.add(method));
    else if (layer.handle.stack) allowedMethods(layer.handle.stack, path.slice(match.path.length) || '/').forEach((m) => methods.add(m));
  }
  return methods;
}

/**
 * Placed after a router's routes: a known path asked with a method it does not answer gets
 * 405 with `Allow` (RFC 9110), not the 404 of a path that does not exist.
 */
export function methodNotAllowed(router: Router): RequestHandler {
  return (req, _res, next) => {
    const allowed = allowedMethods((router as unknown as { stack: RouterLayer[] }).stack, req.path);
    if (allowed.size === 0 || allowed.has(req.method)) {
      next();
      return;
    }
    const allow = [...allowed].join(', ');
    throw new HttpError(405, `${req.method} is not allowed here; use ${allow}`, {}, { Allow: allow });
  };
}

import { Router, type RequestHandler } from 'express';

// A router written as a table: each path once, with the handler of each method it answers, or a
// router mounted there (several entries under one path: a list). The table is what the API is:
// docs/api.md lists the same paths, and the 405's Allow (allowed-methods.ts) reads the router built
// from it. Express matches in the table's order (a literal path such as '/search' before '/:id').

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Entry = Partial<Record<Method, RequestHandler>> | Router;
export type Routes = Record<string, Entry | Entry[]>;

export function routerOf(routes: Routes): Router {
  const router = Router();
  for (const [path, entries] of Object.entries(routes)) {
    for (const entry of Array.isArray(entries) ? entries : [entries]) {
      // A router is a function; a path's methods are a plain object.
      if (typeof entry === 'function') router.use(path, entry);
      else for (const [method, handler] of Object.entries(entry)) router[method as Method](path, handler);
    }
  }
  return router;
}

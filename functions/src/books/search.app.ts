import express from 'express';
import { adminSession } from '../admin/admin-session';
import { methodNotAllowed } from '../lib/allowed-methods';
import { withBodyLimitCheck } from '../lib/body-parse-errors';
import { noStoreByDefault } from '../lib/cache';
import { withDeadline } from '../lib/deadline';
import { errorHandler, notFound } from '../lib/errors';
import { readCounter } from '../lib/read-counter';
import { adminBooks, search, suggest } from './catalog.handlers';

// The `search` function (issue 38): every route that reads the catalogue's search index, which
// lives in the instance's memory (catalog-index.ts) and grows with the catalogue: at 100,000 books
// loading it peaks at about 0.8 GB and building it at 1 GB (BENCHMARKS.md, section 7), far past
// the 256 MiB the rest of the API needs. So these routes are a function of their own, sized for the index (index.ts), and Hosting
// rewrites them here (firebase.json); `api` never builds or loads the index. The middleware is
// `api`'s own (app.ts): the admin's search needs the staff session and its secret.
export function createSearchApp() {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(noStoreByDefault);
  app.use(withDeadline());
  app.use(readCounter);
  app.use(adminSession);
  app.use((_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });
  const api = express.Router();
  api.get('/books/search', search);
  api.get('/books/suggest', suggest);
  api.get('/admin/books', adminBooks); // Manage Books: its list, and its search by title or author
  api.use(methodNotAllowed(api));
  app.use('/api', api);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

/** What the `search` function serves (index.ts). */
export function createSearchHandler() {
  return withBodyLimitCheck(createSearchApp());
}

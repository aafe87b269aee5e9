import express from 'express';
import { adminLogin, adminStats } from './admin/admin.handlers';
import { booksRouter, coversRouter } from './books/books.router';
import { adminBooks } from './books/catalog.handlers';
import { errorHandler, notFound } from './lib/errors';
import { readCounter } from './lib/read-counter';
import { ordersRouter } from './orders/orders.router';

/** The Express app behind the single `api` function; Hosting forwards the full /api/... path. */
export function createApp() {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple'); // no nested objects from ?a[b]=c
  app.use(readCounter);
  app.use((_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });
  const api = express.Router();
  api.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  api.use('/books', booksRouter);
  api.use('/covers', coversRouter);
  api.use('/orders', ordersRouter);
  api.post('/auth/admin', adminLogin);
  api.get('/admin', adminStats);
  api.get('/admin/books', adminBooks);
  app.use('/api', api);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

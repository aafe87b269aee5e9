import express from 'express';
import { adminLogin, adminLogout, adminStats } from './admin/admin.handlers';
import { adminSession } from './admin/admin-session';
import { staffRouter } from './admin/staff.router';
import { bulkBooks } from './books/books.handlers';
import { booksRouter, coversRouter } from './books/books.router';
import { adminBooks } from './books/catalog.handlers';
import { isbnLookup } from './books/isbn.handlers';
import { methodNotAllowed } from './lib/allowed-methods';
import { withBodyLimitCheck } from './lib/body-parse-errors';
import { noStoreByDefault } from './lib/cache';
import { withDeadline } from './lib/deadline';
import { errorHandler, notFound } from './lib/errors';
import { health } from './lib/health';
import { readCounter } from './lib/read-counter';
import { mailAdminRouter } from './mail/mail.router';
import { adminOrdersRouter, checkoutRouter, ordersRouter } from './orders/orders.router';
import { unsubscribe } from './subscriptions/subscriptions.handlers';
import { newsletterRouter, stockAlertsRouter, subscriptionsAdminRouter } from './subscriptions/subscriptions.router';

/** The Express app behind the single `api` function; Hosting forwards the full /api/... path. */
export function createApp() {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple'); // no nested objects from ?a[b]=c
  app.use(noStoreByDefault);
  app.use(withDeadline());
  app.use(readCounter);
  app.use(adminSession); // marks a current (unrevoked) admin token; requireStaff reads that mark
  app.use((_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });
  const api = express.Router();
  api.get('/health', health);
  api.use('/books', booksRouter);
  api.use('/covers', coversRouter);
  api.use('/orders', ordersRouter);
  api.use('/stock-alerts', stockAlertsRouter); // issue 28: back-in-stock alerts, newsletter, their mailed links
  api.use('/newsletter', newsletterRouter);
  api.post('/unsubscribe', unsubscribe);
  api.use('/checkout', checkoutRouter);
  api.post('/auth/admin', adminLogin);
  api.post('/auth/admin/logout', adminLogout);
  api.use('/admin/orders', adminOrdersRouter);
  api.get('/admin', adminStats);
  api.get('/admin/books', adminBooks);
  api.post('/admin/books/bulk', bulkBooks);
  api.get('/admin/isbn/:isbn', isbnLookup);
  api.use('/admin/mail', mailAdminRouter);
  api.use('/admin', subscriptionsAdminRouter);
  api.use('/admin', staffRouter);
  api.use(methodNotAllowed(api));
  app.use('/api', api);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

/** What the `api` function serves (index.ts), and what the in-process tests run under functions-framework. */
export function createApiHandler() {
  return withBodyLimitCheck(createApp());
}

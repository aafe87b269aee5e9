import express from 'express';
import { adminLogin, adminLogout, adminReauth, adminStats } from './admin/admin.handlers';
import { adminSession } from './admin/admin-session';
import { staffRouter } from './admin/staff.router';
import { bulkBooks } from './books/books.handlers';
import { booksRouter, coversRouter } from './books/books.router';
import { isbnLookup } from './books/isbn.handlers';
import { methodNotAllowed } from './lib/allowed-methods';
import { withBodyLimitCheck } from './lib/body-parse-errors';
import { noStoreByDefault } from './lib/cache';
import { withDeadline } from './lib/deadline';
import { errorHandler, notFound } from './lib/errors';
import { health } from './lib/health';
import { readCounter } from './lib/read-counter';
import { mailAdminRouter } from './mail/mail.router';
import { routerOf } from './lib/routes';
import { salesRouter } from './sales/sales.router';
import { shiftsRouter } from './shifts/shifts.router';
import { readersRouter } from './sales/readers.router';
import { adminOrdersRouter, adminPreordersRouter, checkoutRouter, ordersRouter } from './orders/orders.router';
import { adminSpecialOrdersRouter, specialOrdersRouter } from './special-orders/special-orders.router';
import { adminPaymentRouter, checkoutPaymentRouter, orderPaymentRouter, paymentProblemsRouter, stripeRouter } from './payments/payments.router';
import { giftCardsRouter, promotionsAdminRouter } from './promotions/promotions.router';
import { purchasingAdminRouter } from './purchasing/purchasing.router';
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
  // Every /api route, by path (lib/routes.ts); the features' routers are mounted under theirs.
  const api = routerOf({
    '/health': { get: health },
    '/books': booksRouter,
    '/covers': coversRouter,
    '/orders': [orderPaymentRouter, ordersRouter], // issue 35: card payments (Pay Now) before the orders' own
    '/stock-alerts': stockAlertsRouter, // issue 28: back-in-stock alerts, newsletter, their mailed links
    '/newsletter': newsletterRouter,
    '/unsubscribe': { post: unsubscribe },
    '/checkout': [checkoutPaymentRouter, checkoutRouter],
    '/stripe': stripeRouter, // Stripe's webhook, verified on the raw body
    '/auth/admin': { post: adminLogin },
    '/auth/admin/logout': { post: adminLogout },
    '/auth/admin/reauth': { post: adminReauth }, // issue 36: a proof for sensitive actions
    '/admin/orders': [adminPaymentRouter, adminOrdersRouter], // refunds before the desk's own routes
    '/admin/payment-problems': paymentProblemsRouter, // issue 54: the queue of orders whose money needs staff
    '/special-orders': specialOrdersRouter, // issue 41
    '/admin/special-orders': adminSpecialOrdersRouter,
    '/admin/preorders': adminPreordersRouter,
    // GET /admin/books (Manage Books, with its search) is the `search` function's (books/search.app.ts).
    '/admin/books/bulk': { post: bulkBooks },
    '/admin/isbn/:isbn': { get: isbnLookup },
    '/admin/mail': mailAdminRouter, // issue 36: the mail that failed
    '/admin/sales': salesRouter, // issue 39: the counter
    '/admin/shifts': shiftsRouter, // issue 57: the till's shifts
    '/admin/readers': readersRouter, // issue 57: the tills' Stripe Terminal readers
    '/gift-cards': giftCardsRouter, // issue 40: the balance check
    '/admin': [{ get: adminStats }, subscriptionsAdminRouter, staffRouter, promotionsAdminRouter, purchasingAdminRouter], // issue 56: buying
  });
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

import { routerOf } from '../lib/routes';
import * as handlers from './subscriptions.handlers';

/** Mounted at /api/stock-alerts. */
export const stockAlertsRouter = routerOf({ '/': { post: handlers.createStockAlert } });

/** Mounted at /api/newsletter. */
export const newsletterRouter = routerOf({ '/': { post: handlers.subscribeNewsletter }, '/confirm': { post: handlers.confirmNewsletter } });

/** Mounted at /api/admin, before the staff router. */
export const subscriptionsAdminRouter = routerOf({
  '/stock-alerts/:bookId': { get: handlers.stockAlertCount },
  '/newsletter.csv': { get: handlers.exportNewsletter },
});

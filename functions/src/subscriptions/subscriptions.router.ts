import { Router } from 'express';
import { sensitiveRoute } from '../lib/auth';
import * as handlers from './subscriptions.handlers';

/** Mounted at /api/stock-alerts. */
export const stockAlertsRouter = Router();
stockAlertsRouter.post('/', handlers.createStockAlert);

/** Mounted at /api/newsletter. */
export const newsletterRouter = Router();
newsletterRouter.post('/', handlers.subscribeNewsletter);
newsletterRouter.post('/confirm', handlers.confirmNewsletter);

/** Mounted at /api/admin, before the staff router. */
export const subscriptionsAdminRouter = Router();
subscriptionsAdminRouter.get('/stock-alerts/:bookId', handlers.stockAlertCount);
// A sensitive action (issue 36): the role's permission and a proof from the last 5 minutes.
subscriptionsAdminRouter.get('/newsletter.csv', sensitiveRoute('newsletter.export'), handlers.exportNewsletter);

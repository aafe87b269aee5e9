import { Router } from 'express';
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
subscriptionsAdminRouter.get('/newsletter.csv', handlers.exportNewsletter);

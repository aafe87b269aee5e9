import { routerOf } from '../lib/routes';
import * as receipts from './receipts/receipts.handlers';
import * as handlers from './sales.handlers';

/** Mounted at /api/admin/sales (issue 39). Literal paths before '/:id'. */
export const salesRouter = routerOf({
  '/': { get: handlers.listSales, post: handlers.createSale },
  '/summary': { get: handlers.summary },
  '/books': { get: handlers.counterBooks },
  '/books/:isbn': { get: handlers.counterBook },
  '/:id': { get: handlers.getSale },
  '/:id/returns': { post: handlers.createReturn },
  '/:id/cancel': { post: handlers.cancelSale },
  '/:id/receipt': { get: receipts.getReceipt },
  '/:id/email': { post: receipts.emailReceipt },
});

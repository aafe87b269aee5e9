import { routerOf } from '../lib/routes';
import * as handlers from './purchasing.handlers';

/** Mounted at /api/admin (issue 56): buying and receiving. */
export const purchasingAdminRouter = routerOf({
  '/suppliers': { get: handlers.listSuppliers, post: handlers.createSupplier },
  '/suppliers/:id': { patch: handlers.patchSupplier },
  '/purchase-orders': { get: handlers.listPurchaseOrders, post: handlers.createPurchaseOrder },
  '/purchase-orders/:id': { get: handlers.getPurchaseOrder },
  '/purchase-orders/:id/csv': { get: handlers.purchaseOrderCsv },
  '/purchase-orders/:id/send': { post: handlers.movePurchaseOrder('sent') },
  '/purchase-orders/:id/cancel': { post: handlers.movePurchaseOrder('cancelled') },
  '/reorder-suggestions': { get: handlers.listReorderSuggestions },
  '/receipts': { post: handlers.createReceipt },
  '/unlisted-books': { get: handlers.listUnlistedBooks },
  '/stock/valuation': { get: handlers.getValuation },
  '/stock/margin': { get: handlers.getMargin },
  '/supplier-returns': { post: handlers.createSupplierReturn },
});

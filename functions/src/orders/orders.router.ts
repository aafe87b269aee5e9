import { Router } from 'express';
import * as admin from './admin-orders.handlers';
import * as handlers from './orders.handlers';

export const ordersRouter = Router();
ordersRouter.post('/', handlers.createOrder);
ordersRouter.get('/', handlers.myOrders);
ordersRouter.get('/email/:email', handlers.ordersByEmail);
ordersRouter.get('/:id', handlers.getOrder);
ordersRouter.post('/:id/cancel', handlers.cancelOrder);

/** Mounted at /api/admin/orders. */
export const adminOrdersRouter = Router();
adminOrdersRouter.get('/', admin.listOrders);
adminOrdersRouter.post('/:id/status', admin.changeStatus);
adminOrdersRouter.post('/:id/ship-available', admin.shipAvailable);

/** Mounted at /api/checkout (issue 27). */
export const checkoutRouter = Router();
checkoutRouter.post('/quote', handlers.quote);

/** Mounted at /api/admin/preorders (issue 41): the desk's pre-order lines by publication date. */
export const adminPreordersRouter = Router();
adminPreordersRouter.get('/', admin.listPreorders);

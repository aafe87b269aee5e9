import { Router } from 'express';
import * as handlers from './special-orders.handlers';

/** Mounted at /api/special-orders (issue 41): a signed-in shopper's requests. */
export const specialOrdersRouter = Router();
specialOrdersRouter.post('/', handlers.createSpecialOrder);
specialOrdersRouter.get('/', handlers.mySpecialOrders);
specialOrdersRouter.post('/:id/accept', handlers.acceptSpecialOrder);
specialOrdersRouter.post('/:id/decline', handlers.answerSpecialOrder('declined'));
specialOrdersRouter.post('/:id/cancel', handlers.answerSpecialOrder('cancelled'));

/** Mounted at /api/admin/special-orders: the desk's. */
export const adminSpecialOrdersRouter = Router();
adminSpecialOrdersRouter.get('/', handlers.listSpecialOrders);
adminSpecialOrdersRouter.post('/:id/status', handlers.moveSpecialOrder);

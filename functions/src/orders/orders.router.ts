import { Router } from 'express';
import * as handlers from './orders.handlers';

export const ordersRouter = Router();
ordersRouter.post('/', handlers.createOrder);
ordersRouter.get('/email/:email', handlers.ordersByEmail);

import { routerOf } from '../lib/routes';
import * as handlers from './shifts.handlers';

/** Mounted at /api/admin/shifts (issue 57). Literal paths before '/:id'. */
export const shiftsRouter = routerOf({
  '/': { get: handlers.listShifts, post: handlers.openShift },
  '/open': { get: handlers.openOfTill },
  '/:id': { get: handlers.getShift },
  '/:id/petty-cash': { post: handlers.pettyCash },
  '/:id/close': { post: handlers.closeShift },
});

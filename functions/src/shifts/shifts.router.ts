import { routerOf } from '../lib/routes';
import * as handlers from './shifts.handlers';
import * as zReport from './z-report.handlers';

/** Mounted at /api/admin/shifts (issue 57). Literal paths before '/:id'. */
export const shiftsRouter = routerOf({
  '/': { get: handlers.listShifts, post: handlers.openShift },
  '/open': { get: handlers.openOfTill },
  '/z-report': { get: zReport.dayZReport },
  '/:id': { get: handlers.getShift },
  '/:id/z-report': { get: zReport.shiftZReport },
  '/:id/petty-cash': { post: handlers.pettyCash },
  '/:id/close': { post: handlers.closeShift },
});

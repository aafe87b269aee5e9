import { routerOf } from '../lib/routes';
import { getCounterSettings, putCounterSettings } from '../sales/sales.handlers';
import * as handlers from './staff.handlers';

/** Mounted at /api/admin. */
export const staffRouter = routerOf({
  '/me': { get: handlers.me },
  '/me/totp': { post: handlers.startTotp, delete: handlers.disableTotp },
  '/me/totp/confirm': { post: handlers.confirmTotp },
  '/staff': { get: handlers.listStaff, post: handlers.createStaff },
  '/staff/:username': { patch: handlers.updateStaff, delete: handlers.deleteStaff },
  '/audit': { get: handlers.listAudit },
  '/settings': { get: handlers.getSettings, put: handlers.putSettings },
  '/settings/fulfilment': { get: handlers.getFulfilment, put: handlers.putFulfilment },
  '/settings/counter': { get: getCounterSettings, put: putCounterSettings }, // issue 55: a bookseller's counter allowance
});

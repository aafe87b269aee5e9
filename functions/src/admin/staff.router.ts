import { Router } from 'express';
import * as handlers from './staff.handlers';

/** Mounted at /api/admin. */
export const staffRouter = Router();
staffRouter.get('/me', handlers.me);
staffRouter.post('/me/totp', handlers.startTotp);
staffRouter.post('/me/totp/confirm', handlers.confirmTotp);
staffRouter.delete('/me/totp', handlers.disableTotp);
staffRouter.get('/staff', handlers.listStaff);
staffRouter.post('/staff', handlers.createStaff);
staffRouter.patch('/staff/:username', handlers.updateStaff);
staffRouter.delete('/staff/:username', handlers.deleteStaff);
staffRouter.get('/audit', handlers.listAudit);
staffRouter.get('/settings', handlers.getSettings);
staffRouter.put('/settings', handlers.putSettings);
staffRouter.get('/settings/fulfilment', handlers.getFulfilment);
staffRouter.put('/settings/fulfilment', handlers.putFulfilment);

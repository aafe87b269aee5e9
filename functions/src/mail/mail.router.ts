import { Router } from 'express';
import * as handlers from './mail.handlers';

/** Mounted at /api/admin/mail. */
export const mailAdminRouter = Router();
mailAdminRouter.get('/failed', handlers.listFailedMail);
mailAdminRouter.get('/waiting', handlers.listWaitingMail);
mailAdminRouter.post('/:id/resend', handlers.resend);

import { routerOf } from '../lib/routes';
import * as handlers from './readers.handlers';

/** Mounted at /api/admin/readers (issue 57). */
export const readersRouter = routerOf({
  '/': { get: handlers.listReaders, post: handlers.createReader },
  '/:id': { delete: handlers.deleteReader },
});

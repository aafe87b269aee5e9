import { routerOf } from '../lib/routes';
import * as handlers from './books.handlers';
import { importBooks } from './import.handlers';

/** Mounted at /api/books. */
export const booksRouter = routerOf({
  '/': { get: handlers.listBooks },
  // GET /search and /suggest are the `search` function's (search.app.ts).
  '/create-book': { post: handlers.createBook },
  '/cover': { post: handlers.uploadCover },
  '/import': { post: importBooks },
  '/edit/:id': { put: handlers.editBook },
  '/:id': { get: handlers.getBook, delete: handlers.deleteBook },
});

/** Mounted at /api/covers. */
export const coversRouter = routerOf({ '/:name': { get: handlers.getCover } });

import { routerOf } from '../lib/routes';
import * as handlers from './books.handlers';
import { search, suggest } from './catalog.handlers';
import { importBooks } from './import.handlers';

/** Mounted at /api/books. */
export const booksRouter = routerOf({
  '/': { get: handlers.listBooks },
  '/search': { get: search },
  '/suggest': { get: suggest },
  '/create-book': { post: handlers.createBook },
  '/cover': { post: handlers.uploadCover },
  '/import': { post: importBooks },
  '/edit/:id': { put: handlers.editBook },
  '/:id': { get: handlers.getBook, delete: handlers.deleteBook },
});

/** Mounted at /api/covers. */
export const coversRouter = routerOf({ '/:name': { get: handlers.getCover } });

import { Router } from 'express';
import * as handlers from './books.handlers';
import { importBooks } from './import.handlers';

export const booksRouter = Router();
booksRouter.get('/', handlers.listBooks);
// GET /search and /suggest are the `search` function's (search.app.ts).
booksRouter.post('/create-book', handlers.createBook);
booksRouter.post('/cover', handlers.uploadCover);
booksRouter.post('/import', importBooks);
booksRouter.put('/edit/:id', handlers.editBook);
booksRouter.get('/:id', handlers.getBook);
booksRouter.delete('/:id', handlers.deleteBook);

export const coversRouter = Router();
coversRouter.get('/:name', handlers.getCover);

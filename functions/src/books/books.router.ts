import { Router } from 'express';
import * as handlers from './books.handlers';
import { search, suggest } from './catalog.handlers';
import { importBooks } from './import.handlers';

export const booksRouter = Router();
booksRouter.get('/', handlers.listBooks);
booksRouter.get('/search', search);
booksRouter.get('/suggest', suggest);
booksRouter.post('/create-book', handlers.createBook);
booksRouter.post('/cover', handlers.uploadCover);
booksRouter.post('/import', importBooks);
booksRouter.put('/edit/:id', handlers.editBook);
booksRouter.get('/:id', handlers.getBook);
booksRouter.delete('/:id', handlers.deleteBook);

export const coversRouter = Router();
coversRouter.get('/:name', handlers.getCover);

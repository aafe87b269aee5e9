import { Router } from 'express';
import * as handlers from './books.handlers';
import { search, suggest } from './catalog.handlers';

export const booksRouter = Router();
booksRouter.get('/', handlers.listBooks);
booksRouter.get('/search', search);
booksRouter.get('/suggest', suggest);
booksRouter.post('/create-book', handlers.createBook);
booksRouter.post('/cover', handlers.uploadCover);
booksRouter.put('/edit/:id', handlers.editBook);
booksRouter.get('/:id', handlers.getBook);
booksRouter.delete('/:id', handlers.deleteBook);

export const coversRouter = Router();
coversRouter.get('/:name', handlers.getCover);

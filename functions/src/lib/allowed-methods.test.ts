import express, { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { allowedMethods } from './allowed-methods';

type Stack = Parameters<typeof allowedMethods>[0];
const ok: express.RequestHandler = (_req, res) => void res.end();

describe('allowedMethods', () => {
  const books = Router();
  books.get('/', ok);
  books.post('/import', ok);
  books.get('/:id', ok);
  books.delete('/:id', ok);
  const api = Router();
  api.get('/health', ok);
  api.use('/books', books);
  const stack = (api as unknown as { stack: Stack }).stack;

  it('names the methods of the routes a path matches, in mounted routers too, HEAD with GET', () => {
    expect([...allowedMethods(stack, '/health')].sort()).toEqual(['GET', 'HEAD']);
    expect([...allowedMethods(stack, '/books')].sort()).toEqual(['GET', 'HEAD']);
    expect([...allowedMethods(stack, '/books/abc')].sort()).toEqual(['DELETE', 'GET', 'HEAD']);
    expect([...allowedMethods(stack, '/books/import')].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'POST']);
  });

  it('names nothing for a path no route answers', () => {
    expect(allowedMethods(stack, '/nowhere').size).toBe(0);
    expect(allowedMethods(stack, '/books/a/b').size).toBe(0);
  });
});

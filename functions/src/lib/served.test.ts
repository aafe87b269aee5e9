import { describe, expect, it, vi } from 'vitest';
import { served, servesHere } from './served';

describe('servesHere', () => {
  it('knows the function an instance was started for, as Cloud Run and functions-framework name it', () => {
    expect(servesHere('api', { FUNCTION_TARGET: 'api' }, [])).toBe(true);
    expect(servesHere('releaseHolds', { K_SERVICE: 'releaseholds' }, [])).toBe(true);
    expect(servesHere('pages', {}, ['node', 'main.js', '--target=pages'])).toBe(true);
    expect(servesHere('pages', { FUNCTION_TARGET: 'api', K_SERVICE: 'api' }, ['--target=api'])).toBe(false);
  });
});

describe('served', () => {
  it('loads the code once, on first use, and passes every call through', async () => {
    const calls: unknown[][] = [];
    const load = vi.fn(async () => ({ default: (...args: unknown[]) => void calls.push(args) }));
    const handler = served('not-this-process', load);
    expect(load).not.toHaveBeenCalled(); // another function's code is never loaded here
    await handler('a', 1);
    await handler('b', 2);
    expect(load).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([['a', 1], ['b', 2]]);
  });

  it('loads at once in the process that serves the function', async () => {
    process.env.FUNCTION_TARGET = 'eager';
    try {
      const load = vi.fn(async () => ({ default: () => undefined }));
      served('eager', load);
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      delete process.env.FUNCTION_TARGET;
    }
  });

  it('answers an HTTP request 500 when the code cannot load, and fails other triggers', async () => {
    const handler = served('broken', async () => {
      throw new Error('Cannot find module ./broken.js');
    });
    const res = { headersSent: false, status: 0, body: '', writeHead(status: number) { this.status = status; }, end(body: string) { this.body = body; } };
    await handler({}, res);
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ message: 'Internal server error' });
    await expect(handler({ data: 'an event' })).rejects.toThrow('Cannot find module');
  });
});

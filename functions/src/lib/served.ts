import type { ServerResponse } from 'node:http';
import { logger } from 'firebase-functions/logger';

// Each exported function is its own Cloud Run service (FUNCTION_TARGET and K_SERVICE name it) that
// loads functions/lib/index.js, which declares every function (firebase-tools reads their options
// there) but holds none of their code. A function's code is its own bundle, lib/<name>.js
// (functions/src/serve/<name>.ts, built by functions/build.mjs), loaded by `served` below: at once in
// the process that serves it, on first use anywhere else (the Functions emulator, a test). So the
// `pages` service never loads the API's handlers and `api` never loads React (issue 38).

/** Whether this process was started to serve `name`: Cloud Run's variables, or functions-framework's --target. */
export function servesHere(name: string, env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): boolean {
  return env.FUNCTION_TARGET === name || env.K_SERVICE?.toLowerCase() === name.toLowerCase() || argv.includes(`--target=${name}`);
}

type Handler<Args extends unknown[]> = (...args: Args) => unknown;

/**
 * A function's handler from its own bundle: `load` is `() => import('../serve/<name>')`, whose
 * default export is what the trigger runs (an Express app, a scheduled job). HTTP: a bundle that
 * fails to load answers 500 (and is logged); for other triggers the call fails, and the platform
 * retries or reports it as it would any failed run.
 */
export function served<Args extends unknown[]>(name: string, load: () => Promise<{ default: Handler<Args> }>): (...args: Args) => Promise<void> {
  let loading: Promise<Handler<Args>> | undefined;
  const handler = () => (loading ??= load().then((module) => module.default));
  if (servesHere(name)) handler().catch(() => undefined); // started with the instance; a failure shows on the first call
  return async (...args) => {
    let run: Handler<Args>;
    try {
      run = await handler();
    } catch (error) {
      logger.error(`The ${name} function's code could not be loaded`, { error: String(error) });
      const res = args[1] as Partial<ServerResponse> | undefined;
      if (typeof res?.writeHead === 'function' && !res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end!(JSON.stringify({ message: 'Internal server error' }));
        return;
      }
      throw error;
    }
    await run(...args);
  };
}

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { assetNames } from './asset-headers';
import { deployConfig } from './deploy';
import { HOST, ROOT } from './env';

// Hosting as the deploy configures it, for one public folder: the Hosting emulator's own server
// (superstatic, with firebase-tools' function proxy) given the config `npm run deploy` writes for
// that build (firebase.json, its /assets/ rule narrowed to the folder's files: asset-headers.ts).
// The suite's Hosting emulator cannot stand in for it once another build is on disk: it read its
// config, and with it the asset names it marks immutable, when it started.

const FIREBASE_TOOLS = join(ROOT, 'node_modules', 'firebase-tools');
const requireTools = createRequire(join(FIREBASE_TOOLS, 'package.json'));

type Handler = (req: unknown, res: unknown, next: () => void) => void;

/** Where a function rewrite goes: the function's URL (a functions-framework process, the Functions emulator). */
export type FunctionUrl = (functionId: string, region: string) => string;

/** Serves `web` on a free port with the deploy's Hosting config; function rewrites are proxied to `functionUrl`. */
export async function deployedHosting(web: string, functionUrl: FunctionUrl): Promise<{ url: string; server: Server }> {
  // Internal modules of the pinned firebase-tools (decision 013): the Hosting emulator's own parts.
  const middleware = (requireTools('superstatic') as { default: (spec: object) => Handler }).default;
  const { proxyRequestHandler } = requireTools('./lib/hosting/proxy') as { proxyRequestHandler: (url: string, label: string) => Handler };
  const deployed = JSON.parse(deployConfig(readFileSync(join(ROOT, 'firebase.json'), 'utf8'), assetNames(web))) as { hosting: Record<string, unknown> };
  const config = { ...deployed.hosting, public: relative(ROOT, web) };
  const handler = middleware({
    config,
    cwd: ROOT,
    stack: 'strict',
    compression: true,
    rewriters: {
      function: (rewrite: { function: { functionId: string; region?: string } | string; region?: string }) => {
        const [functionId, region] = typeof rewrite.function === 'string'
          ? [rewrite.function, rewrite.region ?? 'us-central1']
          : [rewrite.function.functionId, rewrite.function.region ?? 'us-central1'];
        return Promise.resolve(proxyRequestHandler(functionUrl(functionId, region), `function ${region}/${functionId}`));
      },
    },
  });
  const server = createServer((req, res) => handler(req, res, () => {
    res.statusCode = 404;
    res.end();
  }));
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return { url: `http://${HOST}:${(server.address() as { port: number }).port}`, server };
}

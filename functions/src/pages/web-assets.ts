import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type Response } from 'express';

// The web build's /assets/ files, served by the `pages` function when Hosting does not have them.
// A release deploys the functions before Hosting (decision 017), so for a minute or two the new
// `pages` names scripts and stylesheets that only the next Hosting release will hold. Hosting serves
// its own files first and rewrites any other /assets/ path here (firebase.json), so the function
// answers them from the copy of the same web build it renders for (functions/build.mjs copies
// web/<dist>/assets/ to lib/web-assets/): every file a page names exists the moment the page does
// (decision 033). A name this build does not have is a 404 that nothing caches: a stale tab's
// chunk from an older release, or a rollback's, comes back the moment its release is live again.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Where the assets of the build the manifest comes from are, in web-build.ts's order. */
function assetsDir(): string | undefined {
  return [
    join(__dirname, '..', '..', 'web', 'dist', 'assets'), // the bundle in functions/lib, next to a web build (emulator)
    join(__dirname, '..', '..', '..', 'web', 'dist', 'assets'), // the sources (unit tests, tsx)
    join(__dirname, 'web-assets'), // deployed: the copy made by functions/build.mjs
  ].find((dir) => existsSync(dir));
}

/** GET /assets/*: this release's file with Hosting's own immutable caching, else a 404 nothing keeps. */
export function webAssets(): express.Router {
  const router = express.Router();
  const dir = assetsDir();
  if (dir) {
    router.use(
      express.static(dir, {
        index: false,
        redirect: false,
        dotfiles: 'ignore',
        fallthrough: true,
        setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
      }),
    );
  }
  router.use((req: Request, res: Response) => {
    res.status(404).set('Cache-Control', 'no-store').json({ message: `No such file in this release: /assets${req.path}` });
  });
  return router;
}

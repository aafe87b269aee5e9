// robots.txt (issue 26): what crawlers may read, and where the sitemap is. A Sitemap line must be an
// absolute URL, so the file is written at build time with the shop's configured origin
// (web/vite.config.ts: the emulators' Hosting address, or the production origin the `pages`
// function also uses, functions/src/pages/site-origin.ts). The Functions emulator answers
// /robots.txt itself, so a function could not serve it locally.

export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /dashboard', 'Disallow: /admin', '', `Sitemap: ${new URL('/sitemap.xml', origin).href}`, ''].join('\n');
}

/**
 * The production origin from the same configuration as the `pages` function: PUBLIC_ORIGIN (in
 * functions/.env.<project>, or the build's environment), else the project's Hosting domain.
 */
export function productionOrigin(projectId: string, publicOrigin?: string): string {
  return publicOrigin ? new URL(publicOrigin).origin : `https://${projectId}.web.app`;
}

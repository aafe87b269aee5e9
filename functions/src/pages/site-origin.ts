/**
 * The shop's public origin for canonical and sitemap URLs, from configuration only: PUBLIC_ORIGIN
 * (functions/.env.<project>, e.g. https://shop.example), else the project's Hosting domain, else
 * (the emulators) Hosting's local address. Never a request header: the pages are cached publicly,
 * and a forged X-Forwarded-Host would otherwise be served to every shopper from the CDN.
 */
export function siteOrigin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PUBLIC_ORIGIN) return new URL(env.PUBLIC_ORIGIN).origin;
  if (env.FUNCTIONS_EMULATOR === 'true' || !env.K_SERVICE) return env.BOOKSTORE_SHOP_ORIGIN ?? 'http://127.0.0.1:5000'; // the launcher's (scripts/lib/env.ts)
  const project = env.GCLOUD_PROJECT ?? env.GOOGLE_CLOUD_PROJECT ?? (JSON.parse(env.FIREBASE_CONFIG ?? '{}') as { projectId?: string }).projectId;
  return `https://${project}.web.app`;
}

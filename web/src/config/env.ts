// Build-time configuration (Vite inlines import.meta.env). A missing value throws when this module
// first loads, which is with the lazily loaded Firebase chunk, not at page start: the production
// build's checks (scripts/lib/deploy-checks.ts) are what refuse a build without them.
function required(name: string, value: string | undefined): string {
  if (!value) throw new Error(`Missing ${name}: copy web/.env.production.example to web/.env.production.local`);
  return value;
}

export const firebaseConfig = {
  apiKey: required('VITE_FIREBASE_API_KEY', import.meta.env.VITE_FIREBASE_API_KEY),
  authDomain: required('VITE_FIREBASE_AUTH_DOMAIN', import.meta.env.VITE_FIREBASE_AUTH_DOMAIN),
  projectId: required('VITE_FIREBASE_PROJECT_ID', import.meta.env.VITE_FIREBASE_PROJECT_ID),
  storageBucket: import.meta.env.VITE_FIREBASE_STORAGE_BUCKET as string | undefined,
  appId: import.meta.env.VITE_FIREBASE_APP_ID as string | undefined,
};

/** Set only in emulator builds; production builds never talk to an emulator. */
export const authEmulatorUrl = import.meta.env.VITE_AUTH_EMULATOR_URL as string | undefined;
export const isEmulatorBuild = import.meta.env.MODE === 'emulator';

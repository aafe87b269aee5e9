import { EMULATOR_ENV } from './env';
import { run } from './watched-process';

async function step(label: string, args: string[]): Promise<void> {
  // The emulators' addresses for this checkout's port slot (scripts/lib/env.ts) override web/.env.emulator's.
  if ((await run(process.execPath, args, { env: { ...process.env, ...EMULATOR_ENV } })).code !== 0) throw new Error(`${label} failed`);
}

/** Builds the function bundle and the web app in emulator mode (Auth emulator, demo config). */
export async function build(): Promise<void> {
  console.log('Building web and functions...');
  // Web first: the functions build copies web/dist/index.html, the shell of the book pages.
  await step('Web build', ['node_modules/vite/bin/vite.js', 'build', 'web', '--mode', 'emulator', '--logLevel', 'warn']);
  await step('Functions build', ['functions/build.mjs']);
}

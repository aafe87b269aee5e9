import { spawnSync } from 'node:child_process';
import { ROOT } from './env';

function run(label: string, cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${label} failed`);
}

/** Builds the function bundle and the web app in emulator mode (Auth emulator, demo config). */
export async function build(): Promise<void> {
  console.log('Building web and functions...');
  // Web first: the functions build copies web/dist/index.html, the shell of the book pages.
  run('Web build', process.execPath, ['node_modules/vite/bin/vite.js', 'build', 'web', '--mode', 'emulator', '--logLevel', 'warn']);
  run('Functions build', process.execPath, ['functions/build.mjs']);
}

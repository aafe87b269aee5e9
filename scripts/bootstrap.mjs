#!/usr/bin/env node
// The one plain-JavaScript file: it runs before TypeScript tooling is installed, installs it if
// needed, then hands over to scripts/<command>.ts in node with tsx's loader, forwarding signals.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [command, ...args] = process.argv.slice(2);
const tsx = `${root}node_modules/.bin/tsx`;

if (!existsSync(tsx) || !existsSync(`${root}node_modules/firebase-tools`)) {
  console.log('Installing dependencies (first run, about 2 minutes)...');
  // `npm ci` installs exactly the committed lockfile (as .ci/run does); `npm install` only without one.
  const verb = existsSync(`${root}package-lock.json`) ? 'ci' : 'install';
  const install = spawnSync('npm', [verb, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}

// Node with tsx's loader, not the tsx CLI: the CLI relays a Ctrl-C to its child, and if the child
// has not answered within 30 ms (a busy machine), sends it again and then SIGKILL. The launcher was
// then killed before it stopped its emulators, which kept their ports. Here the command gets the
// signal itself and stops in its own time.
const child = spawn(process.execPath, ['--import', 'tsx', `${root}scripts/${command}.ts`, ...args], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

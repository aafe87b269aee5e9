import { spawn } from 'node:child_process';

// Runs a command (the firebase CLI, the Firestore emulator's java) in a process group of its own and
// makes sure that group never outlives the launcher: when the launcher exits in any way (even
// kill -9), our stdin pipe closes and we stop the group; SIGTERM from the launcher does the same
// after its final save. Terminal Ctrl-C is left to the launcher, which saves data first.

const [command, ...args] = process.argv.slice(2);
const child = spawn(command!, args, { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
let stopping = false;

function signalGroup(signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    /* already gone */
  }
}

function stop(): void {
  if (stopping) return;
  stopping = true;
  signalGroup('SIGINT');
  setTimeout(() => signalGroup('SIGKILL'), 15_000).unref();
}

child.on('exit', (code) => {
  signalGroup('SIGKILL'); // function workers (or java threads) left behind
  process.exit(code ?? 0);
});
process.on('SIGINT', () => {}); // the launcher decides when to stop
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { HOST, ROOT } from '../scripts/lib/env';
import { functionEnv, readManifest, type Manifest } from '../scripts/lib/rehearsal';
import { heapLimitMb } from '../functions/src/lib/heap';
import { median } from './lighthouse';

// Each function's cold start (issue 38), booted alone as Cloud Run boots it (the rehearsal's
// environment: K_SERVICE, NODE_ENV=production, its own secrets only, the suite's emulators):
//   - module load: `require` of the functions' entry in a fresh Node process (with the function's own
//     bundle, when it has one), and the code that brought in (every file in require.cache, ours and
//     our dependencies');
//   - start to listening: functions-framework spawned until its port accepts a connection;
//   - first request: the function's first answer after that (its own route, below).
// Median of BOOTS boots per function. On shared cores the wall times move with the machine's other
// work; the module load's CPU time barely does.

const BOOTS = 5;
const FRAMEWORK = join(ROOT, 'node_modules', '@google-cloud', 'functions-framework', 'build', 'src', 'main.js');
const SOURCE = join(ROOT, 'functions');

export interface ColdStartRow {
  name: string;
  moduleLoadMs: number;
  /** CPU time of that load (user + system): what a shared machine's other work does not inflate. */
  moduleCpuMs?: number;
  /** Bytes of JavaScript the module load brought in (require.cache: ours and our dependencies'). */
  codeBytes: number;
  listeningMs: number;
  firstRequestMs: number;
  request: string;
  status: number;
  rssMb: number;
}

export interface ColdStartSection {
  date: string;
  note: string;
  functions: ColdStartRow[];
}

interface FirstRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The request each function answers first; a function not named here gets `GET /`. */
function firstRequest(name: string, bookId: string): FirstRequest {
  if (name === 'api') return { method: 'GET', path: '/api/books?limit=16' };
  if (name === 'pages') return { method: 'GET', path: `/books/${bookId}` };
  if (name === 'search') return { method: 'GET', path: '/api/books/search?q=harri%20poter' };
  if (name === 'releaseHolds' || name === 'sweepMail') {
    return { method: 'POST', path: '/', headers: { 'X-CloudScheduler-JobName': `firebase-schedule-${name}-us-central1`, 'Content-Type': 'application/json' }, body: '{}' };
  }
  return { method: 'GET', path: '/' };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `require` of the functions' entry alone, in a fresh process with the function's environment. The
 * loader is a file (its `require.main`, as functions-framework's is, lets the body-parser patch of
 * lib/body-parse-errors.ts find the runtime's body-parser).
 */
function moduleLoad(env: Record<string, string>): { ms: number; cpuMs: number; bytes: number } {
  const main = join(SOURCE, (JSON.parse(readFileSync(join(SOURCE, 'package.json'), 'utf8')) as { main: string }).main);
  const loader = join(ROOT, 'artifacts', 'rehearsal', 'module-load.cjs');
  // Timed to the next turn of the event loop: a function whose code is a bundle of its own (lib/served.ts)
  // requires it in a microtask right after the entry, as the instance starts.
  writeFileSync(loader, `const fs=require('fs');const c=process.cpuUsage();const t=process.hrtime.bigint();require(${JSON.stringify(main)});setImmediate(()=>{const ms=Number(process.hrtime.bigint()-t)/1e6;const u=process.cpuUsage(c);
let b=0;for(const f of Object.keys(require.cache)){try{b+=fs.statSync(f).size}catch{}}process.stdout.write(JSON.stringify({ms,cpuMs:(u.user+u.system)/1000,bytes:b}));process.exit(0)});\n`);
  const done = spawnSync(process.execPath, [loader], { cwd: SOURCE, env, encoding: 'utf8', timeout: 60_000 });
  if (done.status !== 0) throw new Error(`Loading the functions for ${env.K_SERVICE} failed:\n${done.stderr.slice(-2000)}`);
  return JSON.parse(done.stdout.trim().split('\n').at(-1)!) as { ms: number; cpuMs: number; bytes: number };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function rss(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

async function boot(name: string, manifest: Manifest, request: FirstRequest): Promise<{ listeningMs: number; firstRequestMs: number; status: number; rssMb: number }> {
  const endpoint = manifest.endpoints[name]!;
  const port = await freePort();
  const env = functionEnv(name, endpoint, manifest, port);
  const started = performance.now();
  const child = spawn(process.execPath, [`--max-old-space-size=${heapLimitMb(endpoint.availableMemoryMb ?? 256)}`, FRAMEWORK, `--target=${endpoint.entryPoint}`, '--signature-type=http', `--source=${SOURCE}`, `--port=${port}`], { cwd: SOURCE, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = `${stderr}${d.toString()}`.slice(-4000)));
  try {
    while (!(await accepts(port))) {
      if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}) before listening:\n${stderr}`);
      if (performance.now() - started > 60_000) throw new Error(`${name} did not listen within 60 s:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const listeningMs = performance.now() - started;
    const t = performance.now();
    const res = await fetch(`http://${HOST}:${port}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    await res.arrayBuffer();
    return { listeningMs, firstRequestMs: performance.now() - t, status: res.status, rssMb: rss(child) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
}

/** Every function of the built source (functions/lib), BOOTS boots each. Needs the suite's emulators. */
export async function measureColdStarts(bookId: string, note: string, log: (line: string) => void = () => {}): Promise<ColdStartSection> {
  mkdirSync(join(ROOT, 'artifacts', 'rehearsal'), { recursive: true });
  const manifest = readManifest(SOURCE);
  const rows: ColdStartRow[] = [];
  for (const name of Object.keys(manifest.endpoints)) {
    const request = firstRequest(name, bookId);
    const loads = Array.from({ length: BOOTS }, () => moduleLoad(functionEnv(name, manifest.endpoints[name]!, manifest, 0)));
    const boots = [];
    for (let i = 0; i < BOOTS; i++) boots.push(await boot(name, manifest, request));
    const row: ColdStartRow = {
      name,
      moduleLoadMs: Math.round(median(loads.map((l) => l.ms))),
      moduleCpuMs: Math.round(median(loads.map((l) => l.cpuMs))),
      codeBytes: loads[0]!.bytes,
      listeningMs: Math.round(median(boots.map((b) => b.listeningMs))),
      firstRequestMs: Math.round(median(boots.map((b) => b.firstRequestMs))),
      request: `${request.method} ${request.path}`,
      status: boots.at(-1)!.status,
      rssMb: boots.at(-1)!.rssMb,
    };
    log(`  ${name}: module load ${row.moduleLoadMs} ms, ${row.moduleCpuMs} ms of CPU (${Math.round(row.codeBytes / 1024)} KB of code), listening ${row.listeningMs} ms, first request ${row.firstRequestMs} ms (${row.request} -> ${row.status}), RSS ${row.rssMb} MiB`);
    rows.push(row);
  }
  return { date: new Date().toISOString(), note, functions: rows };
}

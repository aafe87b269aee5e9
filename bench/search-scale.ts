// Search at 10,000 and 100,000 books through edits and an import (issue 58, decision 044), on the
// emulators (Firestore, Storage), each function alone with its production heap limit
// (functions/src/lib/heap.ts): `search` booted from the built bundle under functions-framework as the
// rehearsal boots it; the builder's work (`buildSearchIndex`) run in a child process of its own, started
// when meta/catalog moves as the trigger would start it (the emulator's own triggers are off meanwhile).
// Measured per size: the build (time, peak RSS, Firestore reads), `search`'s cold start to its first
// search, an edit's time until searchable, and every answer `search` gave while 5,000 books were
// imported through the import's own code (5 requests of 1,000 rows, as the import page sends them).
//   npx tsx bench/search-scale.ts [--sizes 10000,100000]     (writes BENCHMARKS.md's section 7b)
// Children: --build (the builder's run) and --import-books <from> <count> (one import request's work).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

async function child(): Promise<boolean> {
  if (process.argv.includes('--build')) {
    const { buildSearchSnapshots } = await import('../functions/src/books/search-build');
    const { countedReads } = await import('../functions/src/lib/read-counter');
    const t = performance.now();
    const { result, reads } = await countedReads(() => buildSearchSnapshots());
    // `reads` is the request counter's (lib/read-counter.ts); `booksRead` the documents the builds' catalogue queries returned.
    const booksRead = result.built.reduce((sum, b) => sum + b.books, 0);
    console.log(JSON.stringify({ ms: performance.now() - t, reads, booksRead, built: result.built, skipped: result.skipped, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
    return true;
  }
  if (process.argv.includes('--import-books')) {
    const at = process.argv.indexOf('--import-books');
    const from = Number(process.argv[at + 1]);
    const count = Number(process.argv[at + 2]);
    const { validateRecords } = await import('../functions/src/books/import.rows');
    const { importBooks } = await import('../functions/src/books/import.repo');
    const records = Array.from({ length: count }, (_, i) => {
      const n = from + i;
      return { title: `Imported volume ${n} zyx${n}`, author: 'Bench Author', description: 'A book of the bench import.', category: 'business', oldPrice: '30', newPrice: '19.99', stock: '5', isbn: isbn(n), coverImage: `book-${(n % 23) + 1}` };
    });
    const { rows, errors } = validateRecords(records);
    if (errors.length) throw new Error(`import rows refused: ${JSON.stringify(errors.slice(0, 3))}`);
    const plan = await importBooks(rows, { dryRun: false, actor: { username: 'bench', role: 'owner' } as never });
    console.log(JSON.stringify({ created: plan.created, updated: plan.updated, errors: plan.errors.length }));
    return true;
  }
  return false;
}

function isbn(n: number): string {
  const body = `9791${String(n).padStart(8, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

if (!(await child())) await main();

async function main() {
  const { ROOT, HOST, PORTS } = await import('../scripts/lib/env');
  const { build } = await import('../scripts/lib/build');
  const { startSuite } = await import('../scripts/lib/suite');
  const { functionEnv, readManifest } = await import('../scripts/lib/rehearsal');
  const { freePort } = await import('../scripts/lib/ports');
  const { adminDb } = await import('../scripts/lib/admin-sdk');
  const { heapLimitMb } = await import('../functions/src/lib/heap');
  const { bookFieldsOf, CATEGORIES } = await import('@bookstore/contract');
  const { bookDoc } = await import('../functions/src/books/book-doc');
  const { generatedBooks } = await import('../functions/src/books/catalog-fixtures');
  const { FieldValue } = await import('firebase-admin/firestore');

  const sizesArg = process.argv.includes('--sizes') ? process.argv[process.argv.indexOf('--sizes') + 1]! : '10000,100000';
  const sizes = sizesArg.split(',').map(Number);
  const SOURCE = join(ROOT, 'functions');
  const FRAMEWORK = join(ROOT, 'node_modules', '@google-cloud', 'functions-framework', 'build', 'src', 'main.js');
  const started = Date.now();
  const log = (line: string) => console.log(`[${Math.round((Date.now() - started) / 1000)} s] ${line}`);
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

  await build();
  log('Starting a throwaway emulator suite...');
  const suite = await startSuite({ stateDir: null, log: (l) => console.log(`  ${l}`) });
  const setTriggers = async (on: boolean) => {
    const res = await fetch(`http://${HOST}:${PORTS.hub}/functions/${on ? 'enable' : 'disable'}BackgroundTriggers`, { method: 'PUT' });
    if (!res.ok) throw new Error(`emulator triggers ${on}: ${res.status}`);
  };
  const manifest = readManifest(SOURCE);
  const memoryOf = (name: string) => manifest.endpoints[name]!.availableMemoryMb ?? 256;
  const db = adminDb();
  const rows: Record<string, unknown>[] = [];
  try {
    await setTriggers(false); // this bench is the trigger: one builder at a time, measured
    for (const size of sizes) {
      // The catalogue: the suite's seeded books plus generated ones up to `size`.
      const have = (await db.collection('books').count().get()).data().count;
      const wanted = Math.max(0, size - have);
      log(`${size}: writing ${wanted} generated books (${have} there)...`);
      const writer = db.bulkWriter();
      const generated = generatedBooks(wanted, size);
      const now = new Date().toISOString();
      for (const [i, b] of generated.entries()) {
        const fields = bookFieldsOf({ title: b.title, author: b.author, description: b.description, category: b.category ?? CATEGORIES[0], trending: false, oldPrice: 40, newPrice: b.priceCents / 100, coverImage: b.coverImage, stock: 3 } as never);
        void writer.set(db.collection('books').doc(`g${size}-${String(i).padStart(6, '0')}`), bookDoc(fields, { createdAt: b.createdAt, updatedAt: now }));
      }
      await writer.close();
      await db.collection('meta').doc('catalog').set({ version: FieldValue.increment(1) }, { merge: true });
      const books = (await db.collection('books').count().get()).data().count;

      const runBuilder = () => runChild(['--build'], heapLimitMb(memoryOf('buildSearchIndex')), functionEnv('buildSearchIndex', manifest.endpoints.buildSearchIndex!, manifest, 0));
      log(`${size}: first build...`);
      const firstBuild = JSON.parse(await runBuilder()) as { ms: number; reads: number; booksRead: number; peakRssMb: number; built: { version: number; books: number }[] };
      log(`  built ${JSON.stringify(firstBuild.built)} in ${Math.round(firstBuild.ms)} ms, ${firstBuild.reads} reads, peak RSS ${Math.round(firstBuild.peakRssMb)} MiB`);

      // `search` cold: spawned until its first search answers.
      const port = await freePort();
      const t0 = performance.now();
      const fn = spawn(process.execPath, [`--max-old-space-size=${heapLimitMb(memoryOf('search'))}`, FRAMEWORK, '--target=search', '--signature-type=http', `--source=${SOURCE}`, `--port=${port}`], {
        cwd: SOURCE, env: functionEnv('search', manifest.endpoints.search!, manifest, port), stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      fn.stderr!.on('data', (d: Buffer) => (stderr = `${stderr}${d}`.slice(-4000)));
      const base = `http://${HOST}:${port}`;
      try {
        while (!(await accepts(HOST, port))) {
          if (fn.exitCode !== null) throw new Error(`search exited: ${stderr}`);
          await sleep(20);
        }
        const listeningMs = performance.now() - t0;
        const first = await fetch(`${base}/api/books/search?q=harri%20poter`);
        await first.arrayBuffer();
        const coldMs = performance.now() - t0;
        log(`  search: listening ${Math.round(listeningMs)} ms, first search ${first.status} at ${Math.round(coldMs)} ms, RSS ${rss(fn).now} MiB`);

        // An edit: a title changed and the version moved (the write path's one batch), the builder started as the trigger starts it.
        const target = db.collection('books').doc(`g${size}-000000`);
        const word = `edit${Date.now().toString(36)}`;
        const tEdit = performance.now();
        const batch = db.batch();
        batch.update(target, { title: `The ${word} Edition`, titleKey: `the ${word} edition` });
        batch.set(db.collection('meta').doc('catalog'), { version: FieldValue.increment(1) }, { merge: true });
        await batch.commit();
        const editBuild = runBuilder();
        let editMs = -1;
        const statuses: Record<number, number> = {};
        for (let i = 0; i < 3000; i++) {
          const res = await fetch(`${base}/api/books/search?q=${word}`);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const body = (await res.json()) as { total?: number };
          if (body.total === 1) {
            editMs = performance.now() - tEdit;
            break;
          }
          await sleep(200);
        }
        const edit = JSON.parse(await editBuild) as { ms: number; reads: number; peakRssMb: number };
        log(`  edit searchable after ${Math.round(editMs)} ms (the build: ${Math.round(edit.ms)} ms incl. its 1 s debounce, ${edit.reads} reads, peak RSS ${Math.round(edit.peakRssMb)} MiB); answers meanwhile ${JSON.stringify(statuses)}`);

        // An import of 5,000 books against the warm `search`: shoppers search all along; each
        // version move starts a builder when none runs (maxInstances 1), as the trigger would.
        const answers: Record<number, number> = {};
        let slowest = 0;
        let importing = true;
        const shoppers = Array.from({ length: 4 }, async (_, s) => {
          const qs = ['harri poter', 'dune', 'lantern river', 'cafe eclair'];
          while (importing) {
            const t = performance.now();
            const res = await fetch(`${base}/api/books/search?q=${encodeURIComponent(qs[s]!)}`).catch(() => null);
            const status = res?.status ?? 0;
            await res?.arrayBuffer();
            answers[status] = (answers[status] ?? 0) + 1;
            slowest = Math.max(slowest, performance.now() - t);
            await sleep(100);
          }
        });
        let builder: Promise<string> | null = null;
        let builds = 0;
        let builderPeak = 0;
        let builderReads = 0;
        let seenVersion = ((await db.collection('meta').doc('catalog').get()).get('version') as number) ?? 0;
        const watch = (async () => {
          while (importing || builder) {
            const v = ((await db.collection('meta').doc('catalog').get()).get('version') as number) ?? 0;
            if (v !== seenVersion && !builder) {
              seenVersion = v;
              builds += 1;
              builder = runBuilder().then((out) => {
                const r = JSON.parse(out) as { peakRssMb: number; reads: number };
                builderPeak = Math.max(builderPeak, r.peakRssMb);
                builderReads += r.reads;
                builder = null;
                return out;
              });
            }
            await sleep(500);
          }
        })();
        const tImport = performance.now();
        for (let i = 0; i < 5; i++) {
          const out = JSON.parse(await runChild(['--import-books', String(size * 10 + i * 1000), '1000'], 0, functionEnv('api', manifest.endpoints.api!, manifest, 0))) as { created: number };
          if (out.created !== 1000) throw new Error(`import request ${i + 1} created ${out.created}`);
        }
        const importMs = performance.now() - tImport;
        log(`  import of 5,000 done in ${Math.round(importMs)} ms; search answers so far ${JSON.stringify(answers)}, slowest ${Math.round(slowest)} ms`);
        // Searchable: the last row's word.
        const last = `zyx${size * 10 + 4999}`;
        let importSearchableMs = -1;
        for (let i = 0; i < 3000 && importSearchableMs < 0; i++) {
          const res = await fetch(`${base}/api/books/search?q=${last}`);
          // A search forgives a letter: zyx104998 matches too; the last row's book must be among the answers.
          if (((await res.json()) as { books?: { title: string }[] }).books?.some((b) => b.title.endsWith(last))) importSearchableMs = performance.now() - tImport;
          else await sleep(500);
        }
        importing = false;
        await Promise.all([...shoppers, watch]);
        const searchPeak = rss(fn).peak;
        log(`  import of 5,000: ${Math.round(importMs)} ms; all searchable ${Math.round(importSearchableMs)} ms after it began; ${builds} builds (peak RSS ${Math.round(builderPeak)} MiB, ${builderReads} reads); search answers ${JSON.stringify(answers)}, slowest ${Math.round(slowest)} ms; search peak RSS ${searchPeak} MiB`);
        rows.push({ size, books, firstBuild, coldMs, listeningMs, firstStatus: first.status, editMs, edit, editAnswers: statuses, importMs, importSearchableMs, builds, builderPeak, builderReads, answers, slowest, searchPeak });
      } finally {
        fn.kill('SIGTERM');
      }
    }
  } finally {
    await setTriggers(true).catch(() => undefined);
    await suite.stop();
  }
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const table = [
    // The books the build's one query returned (what Firestore bills): the request counter does not count in the builder's child process.
    '| Books | Build (first) | Builder peak RSS | Books read per build (plus 3 small documents) | `search` cold start to first search | An edit until searchable | `search` peak RSS | Import of 5,000 (5 requests) | Searchable after | Builds during it | Search answers during the import | Slowest answer |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r: any) => `| ${n(r.books)} | ${(r.firstBuild.ms / 1000).toFixed(1)} s | ${n(Math.max(r.firstBuild.peakRssMb, r.builderPeak))} MiB | ${n(r.firstBuild.booksRead)} | ${(r.coldMs / 1000).toFixed(1)} s (${r.firstStatus}) | ${(r.editMs / 1000).toFixed(1)} s | ${n(r.searchPeak)} MiB | ${(r.importMs / 1000).toFixed(1)} s | ${(r.importSearchableMs / 1000).toFixed(1)} s | ${r.builds} | ${Object.entries(r.answers).map(([s, c]) => `${c} x ${s}`).join(', ')} | ${n(r.slowest)} ms |`),
  ].join('\n');
  console.log(table);
  const MARK = { start: '<!-- search-scale:start -->', end: '<!-- search-scale:end -->' };
  const section = `${MARK.start}\n### Search through edits and an import at ${sizes.map((s) => s.toLocaleString('en-US')).join(' and ')} books (issue 58)\n\n\`npx tsx bench/search-scale.ts\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine}, on the emulators (official Cloud Firestore emulator, Storage emulator), the machine shared with other test runs. \`search\` booted alone from the built bundle under functions-framework with its production heap limit (\`--max-old-space-size=${heapLimitMb(memoryOf('search'))}\`, 75% of ${memoryOf('search')} MiB); the builder's work (\`buildSearchIndex\`) in a process of its own with the same limit, started when meta/catalog moved, one at a time, as its trigger (maxInstances 1) starts it, with its 1 s debounce. Generated books (bench/search.ts's vocabulary). Reads per build: the catalogue's books (one select() query) plus the version, the published pointer and the lease; \`search\` itself reads one document a second per instance (the pointer), whatever the edits. 503s: any search answered 503 would be counted in its column.\n\n${table}\n${MARK.end}`;
  const file = join(ROOT, 'BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.includes(MARK.start) ? text.replace(new RegExp(`${MARK.start}[\\s\\S]*${MARK.end}`), section) : text.replace('\n## 8. Flash sale', `\n${section}\n\n## 8. Flash sale`));
  log('Wrote BENCHMARKS.md');
  process.exit(0);
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function rss(p: ChildProcess): { now: number; peak: number } {
  const status = readFileSync(`/proc/${p.pid}/status`, 'utf8');
  const kb = (key: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
  return { now: kb('VmRSS'), peak: kb('VmHWM') };
}

/** A child run of this file (`args`), with a heap limit (0: Node's own), printing its JSON result last. */
function runChild(args: string[], heapMb: number, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...(heapMb ? [`--max-old-space-size=${heapMb}`] : []), '--import', 'tsx', SELF, ...args], { env: { ...env, K_SERVICE: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout!.on('data', (d: Buffer) => (out += d));
    p.stderr!.on('data', (d: Buffer) => (err = `${err}${d}`.slice(-4000)));
    p.once('exit', (code) => (code === 0 ? resolve(out.trim().split('\n').at(-1)!) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}

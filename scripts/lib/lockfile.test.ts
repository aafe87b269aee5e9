import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pruneLockfile, type Lockfile } from '../../functions/lockfile.mjs';

// The function's own lockfile, cut from the root one (functions/lockfile.mjs, decision 016).

const lock = (packages: Lockfile['packages']): Lockfile => ({ lockfileVersion: 3, packages });

describe('pruneLockfile', () => {
  const root = lock({
    '': { name: 'shop', devDependencies: { vitest: '1.0.0' } },
    fn: { version: '1.0.0', dependencies: { a: '1.0.0', b: '2.0.0' }, engines: { node: '22' } },
    'node_modules/fn': { resolved: 'fn', link: true },
    'node_modules/a': { version: '1.0.0', dev: true, dependencies: { c: '^1.0.0' }, optionalDependencies: { gone: '1' } },
    'node_modules/c': { version: '1.2.0', dev: true, peerDependencies: { a: '*' } },
    'fn/node_modules/b': { version: '2.0.0', dependencies: { c: '^1.0.0' }, optionalDependencies: { d: '1.0.0' } },
    'node_modules/b': { version: '1.0.0' }, // another workspace's b: not the function's
    'node_modules/d': { version: '1.0.0', optional: true },
    'node_modules/vitest': { version: '1.0.0', dev: true },
  });

  it("keeps the workspace's closure at the locked versions, as if the workspace were the root", () => {
    const pruned = pruneLockfile(root, 'fn');
    expect(pruned.packages['']).toEqual({ name: 'fn', version: '1.0.0', dependencies: { a: '1.0.0', b: '2.0.0' }, engines: { node: '22' } });
    expect(Object.keys(pruned.packages).sort()).toEqual(['', 'node_modules/a', 'node_modules/b', 'node_modules/c', 'node_modules/d']);
    expect(pruned.packages['node_modules/b']!.version).toBe('2.0.0'); // the workspace's own copy
    // Flags describe the root project's tree: dropped, and optional set only where only optional edges reach.
    expect(pruned.packages['node_modules/a']!.dev).toBeUndefined();
    expect(pruned.packages['node_modules/c']!.optional).toBeUndefined();
    expect(pruned.packages['node_modules/d']!.optional).toBe(true);
  });

  it('refuses a dependency that is not pinned to the locked version', () => {
    const loose = lock({ ...root.packages, fn: { version: '1.0.0', dependencies: { a: '^1.0.0' } } });
    expect(() => pruneLockfile(loose, 'fn')).toThrow(/a: functions\/package.json asks for "\^1.0.0", the lockfile has 1.0.0; pin it exactly/);
  });

  it('refuses a dependency missing from the lock, and a workspace link', () => {
    expect(() => pruneLockfile(lock({ fn: { version: '1.0.0', dependencies: { z: '1.0.0' } } }), 'fn')).toThrow(/z .*not in package-lock.json/);
    const linked = lock({ fn: { version: '1.0.0', dependencies: { w: '1.0.0' } }, 'node_modules/w': { version: '1.0.0', resolved: 'w', link: true } });
    expect(() => pruneLockfile(linked, 'fn')).toThrow(/link to w/);
  });

  it("cuts the repository's own lockfile for the function with every dependency pinned", () => {
    const real = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile;
    const pruned = pruneLockfile(real, 'functions');
    expect(pruned.packages['']!.dependencies!['@google-cloud/functions-framework']).toBe('5.0.5'); // lib/body-parse-errors.ts patches it (decisions 011, 013)
    expect(pruned.packages['node_modules/@google-cloud/functions-framework']!.version).toBe('5.0.5');
    expect(pruned.packages['node_modules/firebase-functions']!.version).toBe(pruned.packages['']!.dependencies!['firebase-functions']);
    expect(Object.keys(pruned.packages).some((p) => p.includes('vitest') || p.includes('playwright'))).toBe(false);
  });
});

describe('install scripts in the locked tree', () => {
  const real = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile & { packages: Record<string, { hasInstallScript?: boolean; link?: boolean; resolved?: string; version?: string }> };
  // Each read and found harmless or unneeded (docs/operations.md, supply chain): esbuild and
  // protobufjs ship what they need without theirs; @firebase/util's writes a config file only from
  // FIREBASE_WEBAPP_CONFIG (unset here); vnu-jar's downloads a Java runtime from GitHub only where no
  // Java 11+ is installed. None compiles anything.
  const REVIEWED = ['@firebase/util', 'esbuild', 'protobufjs', 'vnu-jar'];

  it('re2 is the empty workspace, never the native bindings npm would compile from C++ (decision 035)', () => {
    expect(real.packages['node_modules/re2']).toEqual({ resolved: 'scripts/no-re2', link: true });
    expect(Object.keys(real.packages).filter((path) => /(^|\/)node_modules\/(re2|node-gyp|nan)$/.test(path))).toEqual(['node_modules/re2']);
  });

  it('no other package with an install script joins the tree unreviewed', () => {
    const withScripts = Object.entries(real.packages).filter(([, entry]) => entry.hasInstallScript).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect([...new Set(withScripts)].sort()).toEqual(REVIEWED);
  });
});

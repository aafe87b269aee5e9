// The function's own package-lock.json, cut from the repository's root lockfile (npm workspaces keep
// one lockfile at the root; `firebase deploy` uploads functions/ alone). With it, Cloud Build runs
// `npm ci` and installs exactly the tree the tests ran on, instead of `npm install` resolving every
// transitive version again on deploy day. Written by functions/build.mjs; see decision 016.

/** Where node would find `name` for code at lockfile location `from` ('' = root, 'functions', 'node_modules/a'). */
function resolveFrom(packages, from, name) {
  let at = from;
  for (;;) {
    const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!at) return null;
    const cut = at.lastIndexOf('/node_modules/');
    at = cut >= 0 ? at.slice(0, cut) : at.startsWith('node_modules/') ? '' : at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '';
  }
}

/**
 * The lockfile (v3) for workspace `workspace` alone: its dependencies' closure, each package at
 * the version the root lockfile resolved, paths rewritten as if the workspace were the root.
 * Throws when a dependency is not an exact version equal to the locked one, is missing from the
 * lock, or when two versions of one package would land on the same path.
 * @param {{ lockfileVersion: number, packages: Record<string, any> }} rootLock
 * @param {string} workspace the workspace's folder, e.g. 'functions'
 * @returns {{ name: string, version: string, lockfileVersion: 3, requires: true, packages: Record<string, any> }}
 */
export function pruneLockfile(rootLock, workspace) {
  if (rootLock.lockfileVersion < 2) throw new Error('package-lock.json must be lockfileVersion 2 or 3 (npm 7+)');
  const { packages } = rootLock;
  const root = packages[workspace];
  if (!root) throw new Error(`package-lock.json has no workspace "${workspace}": run npm install`);
  const problems = [];
  // Reached through a non-optional path (false = only through optional dependencies so far).
  const required = new Map();
  const queue = [];
  const visit = (from, name, optional) => {
    const at = resolveFrom(packages, from, name);
    if (!at) {
      if (!optional) problems.push(`${name} (needed by ${from || 'the root'}) is not in package-lock.json`);
      return;
    }
    if (required.has(at) && (required.get(at) || optional)) return;
    required.set(at, (required.get(at) ?? false) || !optional);
    queue.push([at, optional]);
  };
  for (const [name, spec] of Object.entries(root.dependencies ?? {})) {
    const at = resolveFrom(packages, workspace, name);
    const locked = at && packages[at].version;
    if (spec !== locked) problems.push(`${name}: functions/package.json asks for "${spec}", the lockfile has ${locked ?? 'nothing'}; pin it exactly: "${name}": "${locked}"`);
    visit(workspace, name, false);
  }
  while (queue.length > 0) {
    const [at, optional] = queue.shift();
    const entry = packages[at];
    if (entry.link) {
      problems.push(`${at} is a link to ${entry.resolved} (a workspace): bundle it instead (build.mjs inlines @bookstore/contract)`);
      continue;
    }
    const meta = entry.peerDependenciesMeta ?? {};
    for (const name of Object.keys(entry.dependencies ?? {})) visit(at, name, optional);
    for (const name of Object.keys(entry.optionalDependencies ?? {})) visit(at, name, true);
    for (const name of Object.keys(entry.peerDependencies ?? {})) visit(at, name, optional || !!meta[name]?.optional);
  }
  const pruned = {};
  for (const at of [...required.keys()].sort()) {
    const target = at.startsWith(`${workspace}/`) ? at.slice(workspace.length + 1) : at;
    if (pruned[target]) problems.push(`${target}: two versions would land here (${pruned[target].version} and ${packages[at].version})`);
    const { dev: _dev, devOptional: _devOptional, optional: _optional, peer: _peer, ...entry } = packages[at];
    pruned[target] = required.get(at) ? entry : { ...entry, optional: true };
  }
  if (problems.length > 0) throw new Error(`Cannot write the function's lockfile:\n  ${problems.join('\n  ')}`);
  const { name = workspace, version = '0.0.0', dependencies, engines } = root;
  return {
    name,
    version,
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name, version, dependencies, ...(engines ? { engines } : {}) }, ...pruned },
  };
}

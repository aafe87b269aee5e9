// functions/.secret.local as text: NAME=value lines. Kept apart from suite.ts so the rules for
// rewriting it are unit-tested (secret-file.test.ts) without starting anything.

/** The value of `name` in the file's text, if it has one. */
export function readSecret(text: string, name: string): string | undefined {
  return new RegExp(`^${name}=(\\S+)`, 'm').exec(text)?.[1];
}

/**
 * The file's text with `wanted`'s values: lines whose value differs are replaced, missing ones
 * added, every other line kept as it was. Null when nothing changes (the file is left alone).
 */
export function withSecrets(text: string, wanted: Record<string, string>): string | null {
  const changed = Object.entries(wanted).filter(([name, value]) => readSecret(text, name) !== value);
  if (changed.length === 0) return null;
  const kept = text.split('\n').filter((line) => line && !changed.some(([name]) => line.startsWith(`${name}=`)));
  return `${[...kept, ...changed.map(([name, value]) => `${name}=${value}`)].join('\n')}\n`;
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The registry's compile-time promise, proven by compiling: book-fields.type-test.ts holds a field
// without a permission (two ways) and one with a permission that is not a book's, each under a
// `@ts-expect-error`. Compiled as it is, the file has no error (each directive met its error);
// compiled without the directives, each of those lines is an error about `write`.

const FILE = fileURLToPath(new URL('./book-fields.type-test.ts', import.meta.url));
const CONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

let previous: ts.Program | undefined;
/** The type errors of the test file with `source` as its text (only that file is checked; the second compile reuses the first's files). */
function diagnostics(source: string) {
  const { config } = ts.readConfigFile(CONFIG, (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, fileURLToPath(new URL('..', import.meta.url)));
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile;
  host.getSourceFile = (name, language, ...rest) => (name === FILE ? ts.createSourceFile(name, source, language) : read(name, language, ...rest));
  previous = ts.createProgram([FILE], { ...options, noEmit: true }, host, previous);
  return previous.getSemanticDiagnostics(previous.getSourceFile(FILE));
}

describe('the book field registry, compiled', () => {
  it('refuses a field without a book permission: each expected error happens, about write', { timeout: 180_000 }, () => {
    const source = readFileSync(FILE, 'utf8');
    expect(diagnostics(source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);

    const lines = source.split('\n');
    const expected = lines.flatMap((line, i) => (line.trim().startsWith('// @ts-expect-error') ? [i + 1] : []));
    expect(expected.length).toBe(3);
    const stripped = lines.map((line) => (line.trim().startsWith('// @ts-expect-error') ? '' : line)).join('\n');
    const errors = diagnostics(stripped).map((d) => ({
      line: d.file!.getLineAndCharacterOfPosition(d.start!).line, // 0-based: the line after the directive
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
    expect(errors.map((e) => e.line).sort((a, b) => a - b)).toEqual(expected);
    for (const error of errors) expect(error.text).toMatch(/'write'|"books\.edit" \| "books\.price" \| "books\.stock"/); // missing, or not a book permission
  });
});

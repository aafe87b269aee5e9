import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// The functions the code deploys, read from functions/src/index.ts with TypeScript's parser (never
// by loading it: that would start the functions' own checks): each `export const <name> = on...(`,
// its region (its own option, else setGlobalOptions') and the secrets it declares, by their names in
// Secret Manager (the `defineSecret('<NAME>')` of functions/src/config.ts). The deploy compares them
// with the project's functions (a release must not delete one unasked); the docs test with the docs.

export interface CodeFunction {
  name: string;
  /** The firebase-functions call that declares it: onRequest, onSchedule, onDocumentCreated... */
  trigger: string;
  region: string;
  /** Secret Manager names, in the order declared. */
  secrets: string[];
}

const DEFAULT_REGION = 'us-central1'; // firebase-functions' own default

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of object.properties) if (ts.isPropertyAssignment(p) && p.name.getText() === name) return p.initializer;
  return undefined;
}

const stringOf = (node: ts.Expression | undefined) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);

/** `defineSecret('NAME')` per exported constant of config.ts: constant name -> secret name. */
export function definedSecrets(root: string): Map<string, string> {
  const secrets = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isCallExpression(node.initializer) && node.initializer.expression.getText() === 'defineSecret') {
      const name = stringOf(node.initializer.arguments[0]);
      if (name) secrets.set(node.name.getText(), name);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(join(root, 'functions/src/config.ts')));
  return secrets;
}

/** Every function functions/src/index.ts exports, with its region and secrets. */
export function codeFunctions(root: string): CodeFunction[] {
  const source = parse(join(root, 'functions/src/index.ts'));
  const secretNames = definedSecrets(root);
  let globalRegion = DEFAULT_REGION;
  const found: { name: string; trigger: string; options?: ts.ObjectLiteralExpression }[] = [];
  for (const statement of source.statements) {
    if (ts.isExpressionStatement(statement) && ts.isCallExpression(statement.expression) && statement.expression.expression.getText() === 'setGlobalOptions') {
      const options = statement.expression.arguments[0];
      if (options && ts.isObjectLiteralExpression(options)) globalRegion = stringOf(property(options, 'region')) ?? globalRegion;
    }
    if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      // A trigger: onRequest, onSchedule, onDocumentCreated, onCall... (firebase-functions v2).
      if (!init || !ts.isCallExpression(init) || !/^on[A-Z]/.test(init.expression.getText())) continue;
      const first = init.arguments[0];
      found.push({ name: declaration.name.getText(), trigger: init.expression.getText(), options: first && ts.isObjectLiteralExpression(first) ? first : undefined });
    }
  }
  return found.map(({ name, trigger, options }) => {
    const list = options ? property(options, 'secrets') : undefined;
    const secrets = list && ts.isArrayLiteralExpression(list) ? list.elements.map((e) => secretNames.get(e.getText()) ?? e.getText()) : [];
    return { name, trigger, region: (options && stringOf(property(options, 'region'))) ?? globalRegion, secrets };
  });
}

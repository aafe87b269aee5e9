// One owner per aggregate (STYLE.md section 13, issue 54): an order document is written only
// through functions/src/orders/order-writes.ts, a book document only through the book write path
// (functions/src/books/book-writes.ts). This rule reads each other module of the functions and
// reports any write (`tx.update(ref, ...)`, `batch.set(ref, ...)`, `ref.update(...)`, create,
// delete) whose target is an order's or a book's document: a reference made from the aggregate's
// collection accessor (`orders()`, `books()`, `orderRef(id)`), from `collection('orders')` or
// `doc('orders/...')`, or a variable holding one. It is syntactic, so it follows references within
// a file; a reference passed in from elsewhere is the owner's to hand out (order-writes.ts hands
// out none for writing).
import { relative, sep } from 'node:path';

const WRITES = new Set(['update', 'set', 'create', 'delete', 'add']);

const unwrap = (node) => {
  while (node && ['TSNonNullExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'ChainExpression', 'AwaitExpression'].includes(node.type)) node = node.expression;
  return node;
};

const literal = (node) => (node?.type === 'Literal' && typeof node.value === 'string' ? node.value : node?.type === 'TemplateLiteral' && node.quasis.length ? node.quasis[0].value.cooked : null);

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Aggregates are written only by their owner module' },
    messages: { write: '{{file}} writes {{name}} documents directly: go through {{owner}} (one write path per aggregate, STYLE.md section 13)' },
    schema: [{
      type: 'object',
      properties: {
        aggregates: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              collections: { type: 'array', items: { type: 'string' } },
              accessors: { type: 'array', items: { type: 'string' } },
              owners: { type: 'array', items: { type: 'string' } },
            },
            required: ['name', 'collections', 'accessors', 'owners'],
          },
        },
      },
      required: ['aggregates'],
    }],
  },
  create(context) {
    const file = relative(context.cwd, context.filename).split(sep).join('/');
    const aggregates = context.options[0].aggregates.filter((a) => !a.owners.includes(file));
    if (!aggregates.length) return {};
    const held = new Map(); // variable name -> aggregate holding one of its references

    /** The aggregate whose collection or document `node` refers to, or undefined. */
    function aggregateOf(raw) {
      const node = unwrap(raw);
      if (!node) return undefined;
      if (node.type === 'Identifier') return held.get(node.name);
      if (node.type !== 'CallExpression') return undefined;
      const callee = unwrap(node.callee);
      if (callee.type === 'Identifier') return aggregates.find((a) => a.accessors.includes(callee.name));
      if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return undefined;
      const method = callee.property.name;
      const arg = literal(node.arguments[0]);
      if (method === 'collection' && arg !== null) return aggregates.find((a) => a.collections.includes(arg));
      if (method === 'doc' && arg !== null && arg.includes('/')) return aggregates.find((a) => a.collections.includes(arg.split('/')[0]));
      if (method === 'doc' || method === 'withConverter') return aggregateOf(callee.object);
      return undefined;
    }

    const report = (node, aggregate) => context.report({ node, messageId: 'write', data: { file, name: aggregate.name, owner: aggregate.owners[0] } });

    return {
      VariableDeclarator(node) {
        if (node.id.type !== 'Identifier' || !node.init) return;
        const aggregate = aggregateOf(node.init);
        if (aggregate) held.set(node.id.name, aggregate);
        else held.delete(node.id.name);
      },
      CallExpression(node) {
        const callee = unwrap(node.callee);
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || !WRITES.has(callee.property.name)) return;
        // tx.update(ref, ...), batch.set(ref, ...), bulkWriter.create(ref, ...): the target is the first argument.
        const target = aggregateOf(node.arguments[0]);
        if (target) return report(node, target);
        // ref.update(...), orders().doc(id).set(...): the target is the object written.
        const direct = aggregateOf(callee.object);
        if (direct) report(node, direct);
      },
    };
  },
};

export default { rules: { 'aggregate-writes': rule } };

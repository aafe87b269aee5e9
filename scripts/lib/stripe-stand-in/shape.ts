// Whether an object has Stripe's shape: every field of Stripe's example of that resource, each with
// the same JSON type (null stands for "none" of any type, as Stripe's nullable fields do).

type Kind = 'array' | 'object' | 'string' | 'number' | 'boolean';
const kindOf = (v: unknown): Kind => (Array.isArray(v) ? 'array' : (typeof v as Kind));
/** Maps whose keys are free (anyone's metadata), compared as maps only. */
const FREE_FORM = new Set(['metadata', 'payment_method_options', 'fraud_details', 'amount_details', 'wallet_options']);

/** Where `actual` departs from Stripe's example: a missing field, or another JSON type (null is any type's "none"). */
export function shapeProblems(example: unknown, actual: unknown, path = ''): string[] {
  const problems: string[] = [];
  if (kindOf(example) !== 'object' || kindOf(actual) !== 'object') return problems;
  for (const [key, e] of Object.entries(example as Record<string, unknown>)) {
    const here = `${path}${key}`;
    if (!(key in (actual as object))) {
      problems.push(`${here} is missing`);
      continue;
    }
    const a = (actual as Record<string, unknown>)[key];
    if (e === null || a === null) continue;
    if (kindOf(e) !== kindOf(a)) problems.push(`${here} is ${kindOf(a)} where Stripe's is ${kindOf(e)}`);
    else if (kindOf(e) === 'object' && !FREE_FORM.has(key)) problems.push(...shapeProblems(e, a, `${here}.`));
    else if (kindOf(e) === 'array' && (e as unknown[]).length > 0 && (a as unknown[]).length > 0) problems.push(...shapeProblems((e as unknown[])[0], (a as unknown[])[0], `${here}[0].`));
  }
  return problems;
}


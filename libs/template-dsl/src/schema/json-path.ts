/**
 * The JSONPath an issue names (`$.items[0].price`, `$["a b"]`) for the JSON Pointer of an ajv error's instancePath
 * (`/items/0/price`); `$` for the root.
 */
export function jsonPathOf(pointer: string): string {
  if (!pointer) return '$';
  return (
    '$' +
    pointer
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`))
      .join('')
  );
}

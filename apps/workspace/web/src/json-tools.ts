import { syntaxTree } from '@codemirror/language';
import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';

/** A JSON schema node as far as completion reads it. */
type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  additionalProperties?: boolean | Schema;
};

type Segment = string | number;

const unquote = (state: EditorState, node: SyntaxNode): string => {
  try {
    return JSON.parse(state.sliceDoc(node.from, node.to)) as string;
  } catch {
    return state.sliceDoc(node.from + 1, node.to - 1);
  }
};

/** The property names and array indexes from the document's root down to `node`, and the object that holds it. */
function pathTo(state: EditorState, node: SyntaxNode): Segment[] {
  const path: Segment[] = [];
  for (let current: SyntaxNode | null = node; current !== null; current = current.parent) {
    const parent = current.parent;
    if (parent === null) break;
    if (parent.name === 'Property' && current.name !== 'PropertyName') {
      const name = parent.getChild('PropertyName');
      if (name !== null) path.unshift(unquote(state, name));
    } else if (parent.name === 'Array' && current.name !== '[' && current.name !== ']' && current.name !== ',') {
      let index = 0;
      for (let sibling = current.prevSibling; sibling !== null; sibling = sibling.prevSibling) if (sibling.name !== '[' && sibling.name !== ',' && sibling.type.isError === false) index++;
      path.unshift(index);
    }
  }
  return path;
}

/** The string value of property `name` of the object node, when it has one (an element's `type`). */
function stringProperty(state: EditorState, object: SyntaxNode, name: string): string | undefined {
  for (const property of object.getChildren('Property')) {
    const key = property.getChild('PropertyName');
    const value = property.lastChild;
    if (key !== null && unquote(state, key) === name && value !== null && value.name === 'String') return unquote(state, value);
  }
  return undefined;
}

/** Follows $ref and merges allOf; for oneOf/anyOf keeps the branches whose `type` const fits the object's type. */
function branches(root: Schema, schema: Schema | undefined, objectType: string | undefined, depth = 0): Schema[] {
  if (schema === undefined || depth > 20) return [];
  if (schema.$ref !== undefined) {
    const target = schema.$ref.replace(/^#\//, '').split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root) as Schema | undefined;
    return branches(root, target, objectType, depth + 1);
  }
  const alternatives = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].flatMap((s) => branches(root, s, objectType, depth + 1));
  const fitting = objectType === undefined ? alternatives : alternatives.filter((s) => s.properties?.type === undefined || s.properties.type.const === undefined || s.properties.type.const === objectType);
  return [schema, ...(schema.allOf ?? []).flatMap((s) => branches(root, s, objectType, depth + 1)), ...fitting];
}

function childSchema(root: Schema, schema: Schema, segment: Segment): Schema[] {
  return branches(root, schema, undefined).flatMap((s) => {
    if (typeof segment === 'number') return s.items ? [s.items] : [];
    const property = s.properties?.[segment];
    return property ? [property] : [];
  });
}

function schemasAt(root: Schema, path: Segment[]): Schema[] {
  let current: Schema[] = [root];
  for (const segment of path) current = current.flatMap((s) => childSchema(root, s, segment));
  return current;
}

/**
 * Completion from docs/template-dsl.schema.json (issue 35 item 2): property names an object may have at the cursor
 * (for an element, those of its `type`), and the allowed values of a property with an enum.
 */
export function schemaCompletion(root: Schema) {
  return (context: CompletionContext): CompletionResult | null => {
    const { state, pos } = context;
    let node: SyntaxNode = syntaxTree(state).resolveInner(pos, -1);
    const word = context.matchBefore(/"?[\w$-]*/);
    // a property name being typed, or an empty slot in an object
    const inName = node.name === 'PropertyName' || (node.name === 'String' && node.parent?.name === 'Property' && node.parent.firstChild === node && node.nextSibling === null);
    if (inName || node.name === 'Object' || node.name === '{' || node.name === ',') {
      const object = node.name === 'Object' ? node : node.parent?.name === 'Object' ? node.parent : node.parent?.parent?.name === 'Object' ? node.parent.parent : null;
      if (object === null) return null;
      const objectType = stringProperty(state, object, 'type');
      const present = new Set(object.getChildren('Property').map((p) => p.getChild('PropertyName')).filter((n): n is SyntaxNode => n !== null).map((n) => unquote(state, n)));
      const names = new Map<string, string | undefined>();
      for (const schema of schemasAt(root, pathTo(state, object))) {
        for (const branch of branches(root, schema, objectType)) {
          for (const [name, property] of Object.entries(branch.properties ?? {})) if (!present.has(name) && !names.has(name)) names.set(name, property.description);
        }
      }
      if (names.size === 0) return null;
      return {
        from: word ? word.from : pos,
        options: [...names].map(([name, info]) => ({ label: `"${name}"`, apply: `"${name}": `, type: 'property', info })),
        validFor: /^"?[\w$-]*$/,
      };
    }
    // a value: the enum of the property
    if (node.name === 'String' || node.name === ':' || node.name === 'Property') {
      const property: SyntaxNode | null = node.name === 'Property' ? node : node.parent;
      if (property?.name !== 'Property') return null;
      const key = property.getChild('PropertyName');
      const object = property.parent;
      if (key === null || object === null) return null;
      const objectType = stringProperty(state, object, 'type');
      const values = new Set<string>();
      for (const schema of schemasAt(root, pathTo(state, object))) {
        for (const branch of branches(root, schema, objectType)) {
          const prop = branch.properties?.[unquote(state, key)];
          for (const s of branches(root, prop, undefined)) {
            for (const v of s.enum ?? []) if (typeof v === 'string') values.add(v);
            if (typeof s.const === 'string') values.add(s.const);
          }
        }
      }
      if (values.size === 0) return null;
      node = node.name === 'String' ? node : property;
      return { from: node.name === 'String' ? node.from : pos, options: [...values].map((v) => ({ label: JSON.stringify(v), type: 'enum' })) };
    }
    return null;
  };
}

/** Parses a check's path (`$.body[2].text`, `$.page.header`, `translations`) into segments; null when it is not a `$` path. */
export function parsePath(path: string): Segment[] | null {
  if (!path.startsWith('$')) return null;
  const segments: Segment[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(path.slice(1))) !== null) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(`"${match[3]}"`) as string);
  }
  return segments;
}

/** Where the value at `path` is in the document (as deep as the path still matches); null without a tree. */
export function locatePath(state: EditorState, path: Segment[]): { from: number; to: number } | null {
  let node: SyntaxNode | null = syntaxTree(state).topNode.firstChild;
  if (node === null) return null;
  for (const segment of path) {
    let next: SyntaxNode | null = null;
    if (typeof segment === 'number' && node.name === 'Array') {
      const items: SyntaxNode[] = [];
      for (let child = node.firstChild; child !== null; child = child.nextSibling) if (!['[', ']', ','].includes(child.name)) items.push(child);
      next = items[segment] ?? null;
    } else if (typeof segment === 'string' && node.name === 'Object') {
      const property: SyntaxNode | undefined = node.getChildren('Property').find((p) => {
        const key = p.getChild('PropertyName');
        return key !== null && unquote(state, key) === segment;
      });
      next = property?.lastChild ?? null;
    }
    if (next === null) break;
    node = next;
  }
  return { from: node.from, to: node.to };
}

/** Where the element with this id is: its `"id": "<elementId>"` property. */
export function locateElement(state: EditorState, elementId: string): { from: number; to: number } | null {
  const text = state.doc.toString();
  const match = new RegExp(`"id"\\s*:\\s*${JSON.stringify(elementId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).exec(text);
  return match === null ? null : { from: match.index, to: match.index + match[0].length };
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ELEMENT_MODEL, modelOf } from './model/element-model';
import { TemplateElement } from './model/template.types';
import { ELEMENT_STEPS } from './render/element-steps';

/**
 * Decision 0049: the DSL's element types are described by tables keyed by type (the schema's, the model's, the
 * compiler's steps), each of which the compiler holds to the TemplateElement union. The published schema is a file:
 * these tests hold the tables to the element types it announces, and the model's entries to what it says elements hold.
 */
const schema = JSON.parse(readFileSync(path.resolve(__dirname, '../../../docs/template-dsl.schema.json'), 'utf8')) as {
  definitions: Record<string, { properties: Record<string, { $ref?: string }> }> & { element: { properties: { type: { enum: string[] } } } };
};
const schemaTypes = schema.definitions.element.properties.type.enum;
const propertiesOf = (type: string): Record<string, { $ref?: string }> => schema.definitions[`${type}Element`].properties;

describe('element tables (decision 0049)', () => {
  it('the model table and the compiler steps have an entry for exactly the element types of docs/template-dsl.schema.json', () => {
    expect(schemaTypes.length).toBeGreaterThan(0);
    expect(Object.keys(ELEMENT_MODEL).sort()).toEqual([...schemaTypes].sort());
    expect(Object.keys(ELEMENT_STEPS).sort()).toEqual([...schemaTypes].sort());
  });

  it.each(schemaTypes)('a %s holds children exactly when its schema accepts "elements"', (type) => {
    const child = { type: 'spacer', id: 'child', height: 1 };
    const element = { type, id: 'e', elements: [child] } as unknown as TemplateElement;
    expect(modelOf(element).children(element)).toEqual('elements' in propertiesOf(type) ? [child] : []);
  });

  it.each(schemaTypes)('a %s repeats a list exactly when its schema has a list "source"', (type) => {
    const element = { type, id: 'e', source: 'items' } as unknown as TemplateElement;
    expect(modelOf(element).listSource(element)).toBe(propertiesOf(type).source?.$ref === '#/definitions/listSource' ? 'items' : null);
  });

  it.each(schemaTypes)('a %s is a figure (alternative text under PDF/UA) exactly when its schema has "alt"', (type) => {
    expect(ELEMENT_MODEL[type as TemplateElement['type']].figure).toBe('alt' in propertiesOf(type));
  });
});

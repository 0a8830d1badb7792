/**
 * The published JSON Schema (draft-07) of the template DSL. `docs/template-dsl.schema.json` is this object
 * written out (kept in sync by a test). Elements are a `oneOf` discriminated by `type`, so validators that know
 * the OpenAPI `discriminator` keyword (ajv with `discriminator: true`) report errors against the right element.
 */

import type { ElementType } from '../model/template.types';

type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/definitions/${name}` });

const LENGTH_PATTERN = '^[0-9]+(\\.[0-9]+)?(pt|mm|cm|in|px|%)$';
const GRID_TRACK_PATTERN = '^([0-9]+(\\.[0-9]+)?(pt|mm|cm|in|px|%|fr)|auto)$';
const IDENTIFIER_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
const ELEMENT_ID_PATTERN = '^[A-Za-z][A-Za-z0-9_.-]{0,63}$';
const STYLE_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';
const FONT_FAMILY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$';

const text = (description: string): JsonSchema => ({ type: 'string', maxLength: 100_000, description });

/** Properties every element accepts (the `type` is added per element). */
const commonElementProperties: Record<string, JsonSchema> = {
  id: ref('elementId'),
  visibleIf: ref('condition'),
  styleName: ref('styleNames'),
  style: ref('style'),
  width: ref('length'),
  keepTogether: { type: 'boolean', description: 'Keep the element on one page when it fits.' },
  keepWithNext: { type: 'boolean', description: 'Keep the element on the same page as the next one (default true for headings).' },
  pageBreakBefore: { type: 'boolean', description: 'Start a new page before the element (page body only).' },
  pageBreakAfter: { type: 'boolean', description: 'Start a new page after the element (page body only).' },
  position: {
    type: 'object',
    description:
      'Place the element at this distance from the top left corner of the sheet (top right in a right-to-left document), not from the margins, on the page where it stands.',
    additionalProperties: false,
    required: ['x', 'y'],
    properties: { x: ref('length'), y: ref('length') },
  },
  direction: ref('direction'),
  anchor: {
    type: 'string',
    minLength: 1,
    maxLength: 1000,
    description: "Names the element's place (text with bindings, unique in the document): {{ pageOf('…') }} shows the page it lands on, as a link to it.",
  },
  lang: {
    type: 'string',
    pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
    maxLength: 35,
    description: "BCP 47 language of the element's text (ja, zh-Hant, de-CH): its CJK forms and hyphenation; default the document's.",
  },
};

const lineCount = (description: string): JsonSchema => ({ type: 'integer', minimum: 1, maximum: 20, description });

/** An element type's schema but its `type`, which the type's key in ELEMENT_SCHEMAS gives. */
interface ElementSchema {
  description: string;
  required: string[];
  properties: Record<string, JsonSchema>;
}

function element(
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  common: Record<string, JsonSchema> = commonElementProperties,
): ElementSchema {
  return { description, required, properties: { ...common, ...properties } };
}

/** The definition of an element type, named `<type>Element` in the schema. */
function elementDefinition(type: string, schema: ElementSchema): [string, JsonSchema] {
  return [
    `${type}Element`,
    {
      type: 'object',
      description: schema.description,
      required: ['type', 'id', ...schema.required],
      additionalProperties: false,
      properties: { type: { const: type }, ...schema.properties },
    },
  ];
}

/** One entry per element type (decision 0049): the compiler refuses a schema that misses one. */
const ELEMENT_SCHEMAS: { readonly [K in ElementType]: ElementSchema } = {
  text: element('A paragraph or heading with inline bindings.', {
    text: text('Text with {{ expressions }} (paths, arithmetic, functions, formatters); line breaks are kept.'),
    heading: { type: 'integer', minimum: 1, maximum: 6 },
    orphans: lineCount('Fewest lines left at the bottom of a page (default 2).'),
    widows: lineCount('Fewest lines carried to the top of the next page (default 2).'),
  }, ['text']),
  richText: element('Safe Markdown subset (emphasis, lists, headings, links, code, quotes); raw HTML is shown as text.', {
    markdown: text('Markdown with {{ bindings }}; `{{ value | markdown }}` brings Markdown from the data.'),
    orphans: lineCount('Fewest lines of a paragraph left at the bottom of a page (default 2).'),
    widows: lineCount('Fewest lines of a paragraph carried to the top of the next page (default 2).'),
  }, ['markdown']),
  image: element('An image from a data URI, an https URL, or an organisation asset ("asset:<name>").', {
    source: text('data:image/… URI, https URL, asset:<name>, or a binding producing one.'),
    alt: text('Alternative text (the /Alt of its Figure in a tagged PDF); "" marks it as decoration. Required with pdfUA.'),
    height: ref('length'),
    fit: { enum: ['contain', 'cover', 'fill'] },
    align: { enum: ['left', 'center', 'right', 'start', 'end'] },
  }, ['source']),
  table: element('A table bound to a list: the header row repeats on every page; rows never split across pages.', {
    source: ref('listSource'),
    as: ref('identifier'),
    columns: { type: 'array', minItems: 1, maxItems: 64, items: ref('tableColumn') },
    showHeader: { type: 'boolean' },
    headerStyle: ref('style'),
    rowStyle: ref('style'),
    alternateRowStyle: ref('style'),
    totals: {
      type: 'object',
      additionalProperties: false,
      required: ['cells'],
      properties: {
        cells: { type: 'object', propertyNames: { pattern: ELEMENT_ID_PATTERN }, additionalProperties: text('Cell content.') },
        style: ref('style'),
      },
    },
    borders: { enum: ['all', 'horizontal', 'outer', 'none'] },
    borderColor: ref('colour'),
    emptyText: text('Shown when the list is empty.'),
    orphans: lineCount('Fewest rows left at the bottom of a page before the table breaks (default 1).'),
    widows: lineCount('Fewest rows carried to the next page when the table breaks (default 1).'),
    pageBreaks: {
      type: 'object',
      description: 'Lines where the table breaks across pages (placed by the render service after measuring the pages).',
      additionalProperties: false,
      properties: {
        sums: {
          type: 'object',
          description: 'Running sums: name → text giving the row number, e.g. "{{ line.amount }}".',
          propertyNames: { pattern: IDENTIFIER_PATTERN },
          maxProperties: 16,
          additionalProperties: text('A number for this row.'),
        },
        carried: { type: 'object', description: 'Row at the foot of the page: column id → text; carried.<sum> is the sum so far.', propertyNames: { pattern: ELEMENT_ID_PATTERN }, additionalProperties: text('Cell content.') },
        brought: { type: 'object', description: 'Row at the head of the next page: column id → text; carried.<sum> is the sum so far.', propertyNames: { pattern: ELEMENT_ID_PATTERN }, additionalProperties: text('Cell content.') },
        continuedFoot: text('Full-width line at the foot of the page the table continues from.'),
        continuedHead: text('Full-width line at the head of the next page.'),
        style: ref('style'),
      },
    },
  }, ['source', 'columns']),
  repeater: element('Repeats its elements for every item of a list.', {
    source: ref('listSource'),
    as: ref('identifier'),
    elements: ref('elements'),
    layout: { enum: ['column', 'row', 'grid'] },
    columns: { type: 'integer', minimum: 1, maximum: 12 },
    gap: ref('length'),
    keepItemsTogether: { type: 'boolean' },
    emptyText: text('Shown when the list is empty.'),
  }, ['source', 'elements']),
  row: element('Places its elements side by side; elements without a width share the space equally.', {
    elements: ref('elements'),
    gap: ref('length'),
    justify: { enum: ['start', 'center', 'end', 'space-between', 'space-around'] },
    align: ref('crossAlign'),
    wrap: { type: 'boolean' },
  }, ['elements']),
  column: element('Stacks its elements vertically.', {
    elements: ref('elements'),
    gap: ref('length'),
    align: ref('crossAlign'),
  }, ['elements']),
  grid: element('Places its elements in a grid, left to right, top to bottom.', {
    elements: ref('elements'),
    columns: {
      oneOf: [
        { type: 'integer', minimum: 1, maximum: 24 },
        { type: 'array', minItems: 1, maxItems: 24, items: { oneOf: [{ type: 'number', minimum: 0 }, { type: 'string', pattern: GRID_TRACK_PATTERN }] } },
      ],
    },
    gap: ref('length'),
    rowGap: ref('length'),
    align: ref('crossAlign'),
  }, ['elements', 'columns']),
  spacer: element('Empty space.', { height: ref('length') }, ['height']),
  line: element('A horizontal or vertical rule.', {
    orientation: { enum: ['horizontal', 'vertical'] },
    length: ref('length'),
    thickness: ref('length'),
    color: ref('colour'),
    lineStyle: { enum: ['solid', 'dashed', 'dotted'] },
  }),
  box: element('A rectangle (border, background, rounded corners via style) that may hold elements.', {
    height: ref('length'),
    elements: ref('elements'),
  }),
  pageBreak: element('Starts a new page (in the body or a column repeater).', {}, [], {
    id: ref('elementId'),
    visibleIf: ref('condition'),
  }),
  qrCode: element('A QR code.', {
    value: text('Encoded text, usually a binding.'),
    alt: text('Alternative text (the structure element\'s /Alt in a tagged PDF); "" marks it as decoration. Required with pdfUA.'),
    size: ref('length'),
    errorCorrection: { enum: ['L', 'M', 'Q', 'H'] },
    color: ref('colour'),
    backgroundColor: ref('colour'),
  }, ['value']),
  barcode: element('A barcode or 2D code, drawn with its quiet zone.', {
    format: { enum: ['qr', 'datamatrix', 'pdf417', 'aztec', 'code128', 'gs1-128', 'code39', 'ean8', 'ean13', 'upca', 'upce', 'itf14'] },
    value: text('Encoded text, usually a binding.'),
    alt: text('Alternative text (the structure element\'s /Alt in a tagged PDF); "" marks it as decoration. Required with pdfUA.'),
    height: ref('length'),
    showText: { type: 'boolean', description: 'Human-readable text under a linear code; default true.' },
    errorCorrection: { enum: ['L', 'M', 'Q', 'H'], description: 'QR error correction level (format "qr" only); default "M".' },
    color: ref('colour'),
    backgroundColor: ref('colour'),
  }, ['format', 'value']),
  chart: element('A chart drawn as SVG at render time.', {
    chartType: { enum: ['bar', 'line', 'pie', 'doughnut'] },
    source: ref('listSource'),
    labelField: { type: 'string', pattern: IDENTIFIER_PATTERN },
    series: {
      type: 'array',
      minItems: 1,
      maxItems: 12,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field'],
        properties: { field: { type: 'string', pattern: IDENTIFIER_PATTERN }, name: text('Series name.'), color: ref('colour') },
      },
    },
    title: text('Chart title.'),
    alt: text('Alternative text (the structure element\'s /Alt in a tagged PDF); "" marks it as decoration. Required with pdfUA.'),
    height: ref('length'),
    legend: {
      oneOf: [{ type: 'boolean' }, { enum: ['top', 'bottom', 'left', 'right'] }],
      description: 'Show the legend (true: at the bottom) or where; default on for pies and for several series.',
    },
    stacked: { type: 'boolean' },
    horizontal: { type: 'boolean' },
    showValues: { type: 'boolean' },
    valueFormat: {
      enum: ['number', 'currency', 'percent', 'compact'],
      description: 'Values on the value axis, as labels and in pies, in the document locale; default "number". "percent" takes fractions (0.25 is 25 %).',
    },
    decimals: { type: 'integer', minimum: 0, maximum: 6, description: 'Fixed number of decimals of the values.' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code for valueFormat "currency"; default the template currency.' },
    labelFormat: {
      enum: ['text', 'number', 'date', 'month', 'year'],
      description: 'How the labels are shown; default "text" (as they are). Dates are ISO 8601 text or epoch milliseconds.',
    },
    colors: {
      type: 'array',
      minItems: 1,
      maxItems: 64,
      items: ref('colour'),
      description: 'Colours of the slices of a pie, or of the series without their own colour, in order.',
    },
  }, ['chartType', 'source', 'labelField', 'series']),
};

const elementDefinitions = Object.entries(ELEMENT_SCHEMAS).map(([type, schema]) => elementDefinition(type, schema));

const border: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    width: ref('length'),
    style: { enum: ['solid', 'dashed', 'dotted', 'double', 'none'] },
    color: ref('colour'),
  },
};

export const templateJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'docrender template DSL',
  description: 'A document layout: page setup, styles and elements bound to JSON data. See docs/template-dsl.md.',
  type: 'object',
  required: ['body'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    dsl: { const: 1, description: 'DSL version.' },
    name: { type: 'string', maxLength: 200 },
    title: text('PDF title; may contain bindings; default the document name.'),
    locale: { type: 'string', maxLength: 35, description: 'BCP 47 locale for number and date formatting; default en-US.' },
    timeZone: { type: 'string', maxLength: 64, description: 'IANA time zone for dates; default UTC.' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code used by `currency` without an argument.' },
    direction: ref('direction'),
    tagged: { type: 'boolean', description: 'Produce a tagged (accessible) PDF; default false.' },
    outline: { type: 'boolean', description: 'PDF outline (bookmarks) from the headings, nested by level; written by the render service, so an untagged PDF stays untagged; default false.' },
    pdfA: {
      enum: ['PDF/A-2b', 'PDF/A-2u', 'PDF/A-3b', 'PDF/A-3u'],
      description: 'Archival PDF: the PDF/A level the output claims and is checked against before it is stored or returned; default none.',
    },
    pdfUA: {
      enum: ['PDF/UA-1'],
      description: 'Accessible PDF: the output claims PDF/UA-1 (tagged, with alternative texts, headings, table headers, artifacts) and is checked against the rules docs/template-dsl.md lists before it is stored or returned; default none.',
    },
    metadata: {
      type: 'object',
      additionalProperties: false,
      description: 'Document metadata written to the PDF Info dictionary and its XMP; each field may contain bindings.',
      properties: {
        author: text('PDF /Author and dc:creator.'),
        subject: text('PDF /Subject and dc:description.'),
        keywords: text('PDF /Keywords and pdf:Keywords: comma-separated.'),
        creator: text('PDF /Creator and xmp:CreatorTool; default the service.'),
      },
    },
    attachments: {
      type: 'array',
      maxItems: 20,
      description: 'Files embedded in the PDF from the data (Base64) or the organisation\'s assets, listed in the catalog /AF and EmbeddedFiles; not with PDF/A-2.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'mimeType'],
        properties: {
          id: ref('elementId'),
          name: text('File name; may contain bindings.'),
          mimeType: text('MIME type, e.g. application/xml; may contain bindings.'),
          description: text('Description of the file; may contain bindings.'),
          relationship: { enum: ['Source', 'Data', 'Alternative', 'Supplement', 'Unspecified'], description: 'AFRelationship; default Unspecified.' },
          content: text('The file in Base64, normally one binding; or asset.'),
          asset: text('The name of an organisation asset (as in asset:<name>) attached instead of content; may contain bindings.'),
          optional: { type: 'boolean', description: 'An empty content leaves the attachment out instead of being an error; default false.' },
        },
      },
    },
    page: ref('page'),
    defaultStyle: ref('style'),
    styles: {
      type: 'object',
      propertyNames: { pattern: STYLE_NAME_PATTERN },
      additionalProperties: ref('style'),
    },
    dataSchema: { type: ['object', 'boolean'], description: 'JSON Schema of the expected data (draft-07).' },
    eInvoice: {
      type: 'object',
      description:
        'The document is an e-invoice: the profile and the EN 16931 invoice model mapped from the data with bindings (docs/template-dsl.md, "E-invoices"). Its XML is checked and built with the document; a failed rule is a SchemaInvalid error.',
      additionalProperties: false,
      required: ['profile', 'invoice'],
      properties: {
        profile: { enum: ['minimum', 'basicwl', 'basic', 'en16931', 'extended', 'xrechnung'], description: 'Factur-X / ZUGFeRD profile, or XRechnung (CII).' },
        invoice: { type: 'object', description: 'The invoice model (number, dates, seller, buyer, lines, allowancesCharges, vatBreakdown, totals, payment); strings may hold bindings, `{ "$each", "$as", "$value" }` maps a list.' },
      },
    },
    body: ref('elements'),
  },
  definitions: {
    length: {
      description:
        'A number of points, or a string with a unit: pt, mm, cm, in, px or %. An element with a length longer than its sheet, or a percentage above 100, is left out with a RenderLayoutDegraded warning (document caps).',
      oneOf: [{ type: 'number', minimum: 0, maximum: 100_000 }, { type: 'string', pattern: LENGTH_PATTERN }],
    },
    spacing: {
      oneOf: [
        ref('length'),
        { type: 'array', minItems: 2, maxItems: 2, items: ref('length') },
        { type: 'array', minItems: 4, maxItems: 4, items: ref('length') },
      ],
    },
    colour: { type: 'string', minLength: 1, maxLength: 200, description: 'CSS colour (name, hex, rgb/rgba, hsl/hsla) or a binding.' },
    identifier: { type: 'string', pattern: IDENTIFIER_PATTERN },
    direction: {
      enum: ['ltr', 'rtl', 'auto'],
      description:
        "Base direction. auto (default): a document takes its render language's (rtl for ar, he, fa, ur…), a text its first letter's, anything else its surroundings'.",
    },
    elementId: { type: 'string', pattern: ELEMENT_ID_PATTERN },
    listSource: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: "The list to repeat: a data path (`items`) or an expression giving a list, e.g. `groupBy(items, 'vatRate')`.",
    },
    condition: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: "An expression of the template language (the same as in bindings), e.g. `status == 'paid' and total > 0`.",
    },
    styleNames: {
      oneOf: [
        { type: 'string', pattern: STYLE_NAME_PATTERN },
        { type: 'array', maxItems: 16, items: { type: 'string', pattern: STYLE_NAME_PATTERN } },
      ],
    },
    crossAlign: { enum: ['start', 'center', 'end', 'stretch'] },
    border,
    style: {
      type: 'object',
      additionalProperties: false,
      properties: {
        fontFamily: { type: 'string', pattern: FONT_FAMILY_PATTERN },
        fontSize: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
        fontWeight: { oneOf: [{ type: 'integer', minimum: 100, maximum: 900, multipleOf: 100 }, { enum: ['normal', 'bold'] }] },
        italic: { type: 'boolean' },
        color: ref('colour'),
        backgroundColor: ref('colour'),
        textAlign: { enum: ['left', 'center', 'right', 'justify', 'start', 'end'], description: 'start and end follow the direction.' },
        verticalAlign: { enum: ['top', 'middle', 'bottom'] },
        lineHeight: { type: 'number', exclusiveMinimum: 0, maximum: 10 },
        textDecoration: { enum: ['none', 'underline', 'line-through'] },
        border: ref('border'),
        borderTop: ref('border'),
        borderRight: ref('border'),
        borderBottom: ref('border'),
        borderLeft: ref('border'),
        borderRadius: ref('length'),
        padding: ref('spacing'),
        margin: ref('spacing'),
        letterSpacing: ref('length'),
        whiteSpace: { enum: ['normal', 'preserve', 'nowrap'], description: 'normal: spaces collapse; preserve: spaces kept; nowrap: no line wrapping.' },
        hyphenate: {
          type: 'boolean',
          description: "Hyphenate the text's words in the document's language (inherited; default false); numbers, amounts, dates, codes and addresses never are.",
        },
      },
    },
    tableColumn: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'value'],
      properties: {
        id: ref('elementId'),
        header: text('Header cell content.'),
        value: text('Cell content with the row item in scope.'),
        width: ref('length'),
        align: { enum: ['left', 'center', 'right', 'start', 'end'] },
        visibleIf: ref('condition'),
        styleName: ref('styleNames'),
        style: ref('style'),
        headerStyle: ref('style'),
      },
    },
    elements: { type: 'array', maxItems: 10_000, items: ref('element') },
    element: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: Object.keys(ELEMENT_SCHEMAS) } },
      discriminator: { propertyName: 'type' },
      oneOf: elementDefinitions.map(([name]) => ref(name)),
    },
    ...Object.fromEntries(elementDefinitions),
    page: {
      type: 'object',
      additionalProperties: false,
      properties: {
        size: {
          oneOf: [
            { enum: ['A3', 'A4', 'A5', 'A6', 'B4', 'B5', 'Letter', 'Legal', 'Tabloid', 'Label4x6in', 'Label100x150mm', 'EnvelopeDL', 'EnvelopeC5', 'EnvelopeC6'] },
            {
              type: 'object',
              additionalProperties: false,
              required: ['width', 'height'],
              properties: { width: ref('length'), height: ref('length') },
            },
          ],
        },
        orientation: { enum: ['portrait', 'landscape'] },
        margins: {
          oneOf: [
            ref('length'),
            {
              type: 'object',
              additionalProperties: false,
              properties: { top: ref('length'), right: ref('length'), bottom: ref('length'), left: ref('length') },
            },
          ],
        },
        background: { oneOf: [ref('pageBackground'), { type: 'array', minItems: 1, maxItems: 5, items: ref('pageBackground') }] },
        watermark: { oneOf: [ref('watermark'), { type: 'array', minItems: 1, maxItems: 5, items: ref('watermark') }] },
        header: ref('pageBand'),
        footer: ref('pageBand'),
      },
    },
    pageRole: {
      enum: ['all', 'first', 'last', 'odd', 'even'],
      description: 'The pages it is for; on each page the most specific applies: first, then last, then odd/even, then all.',
    },
    pageBackground: {
      type: 'object',
      additionalProperties: false,
      required: ['source'],
      properties: {
        source: text('Same forms as an image source.'),
        pages: ref('pageRole'),
        fit: { enum: ['cover', 'contain', 'stretch'] },
      },
    },
    watermark: {
      type: 'object',
      description: 'Text or an image (one of the two) over the page content, centred and turned.',
      additionalProperties: false,
      properties: {
        text: text('Text with {{ bindings }}.'),
        image: text('Same forms as an image source.'),
        pages: ref('pageRole'),
        angle: { type: 'number', minimum: -180, maximum: 180, description: 'Degrees counter-clockwise; default 35.' },
        opacity: { type: 'number', minimum: 0, maximum: 1, description: 'Default 0.16.' },
        color: ref('colour'),
        fontSize: { type: 'number', exclusiveMinimum: 0, maximum: 400, description: 'Points; default fits the page.' },
        width: ref('length'),
      },
    },
    pageBandVariant: {
      type: 'object',
      additionalProperties: false,
      required: ['elements'],
      properties: {
        verticalAlign: { enum: ['top', 'middle', 'bottom'] },
        direction: ref('direction'),
        elements: ref('elements'),
      },
    },
    pageBand: {
      type: 'object',
      additionalProperties: false,
      required: ['elements'],
      properties: {
        height: ref('length'),
        verticalAlign: { enum: ['top', 'middle', 'bottom'] },
        direction: ref('direction'),
        elements: ref('elements'),
        first: ref('pageBandVariant'),
        last: ref('pageBandVariant'),
        odd: ref('pageBandVariant'),
        even: ref('pageBandVariant'),
      },
    },
  },
} as const;

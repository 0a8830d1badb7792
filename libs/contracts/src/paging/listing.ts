/** Spec 4.1: the shared listing contract. */
export enum SortDirection {
  Asc = 'asc',
  Desc = 'desc',
}

export enum FilterOperator {
  Eq = 'eq',
  Neq = 'neq',
  Contains = 'contains',
  Gt = 'gt',
  Gte = 'gte',
  Lt = 'lt',
  Lte = 'lte',
}

/** Operator sets of spec 4.1. */
export enum FieldKind {
  Id = 'Id',
  Text = 'Text',
  Ordered = 'Ordered',
  Enum = 'Enum',
}

export const OPERATORS_OF_KIND: Record<FieldKind, readonly FilterOperator[]> = {
  [FieldKind.Id]: [FilterOperator.Eq],
  [FieldKind.Text]: [FilterOperator.Eq, FilterOperator.Contains],
  [FieldKind.Ordered]: [FilterOperator.Eq, FilterOperator.Gt, FilterOperator.Gte, FilterOperator.Lt, FilterOperator.Lte],
  [FieldKind.Enum]: [FilterOperator.Eq, FilterOperator.Neq],
};

/** The value type of an Ordered field, so that filter values are parsed as numbers or ISO datetimes. */
export type OrderedValue = 'number' | 'datetime';

export type FilterableField = { kind: FieldKind; valueType?: OrderedValue | 'uuid' | 'string'; enumValues?: readonly string[] };

export type Filter = { field: string; op: FilterOperator; value: string };

export type ListQuery = {
  skip: number;
  take: number;
  sortBy: string;
  sortDirection: SortDirection;
  search?: string;
  filters: Filter[];
};

/** One list endpoint's filterable fields, sortable fields (default first) and whether search applies. */
export type ListingContract = {
  filterable: Record<string, FilterableField>;
  sortable: readonly string[];
  searchable: boolean;
};

/** Spec 4.1 table "Filterable and sortable fields". */
export const LISTINGS = {
  templates: {
    filterable: {
      name: { kind: FieldKind.Text, valueType: 'string' },
      'project.guid': { kind: FieldKind.Id, valueType: 'uuid' },
      createdAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
      updatedAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
    },
    sortable: ['updatedAt', 'name', 'createdAt'],
    searchable: true,
  },
  templateVersions: {
    filterable: {
      versionNumber: { kind: FieldKind.Ordered, valueType: 'number' },
      publishedAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
      createdAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
      updatedAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
    },
    sortable: ['versionNumber', 'publishedAt', 'createdAt', 'updatedAt'],
    // The spec does not state what search matches for versions; we match nothing (documented in docs/api.md).
    searchable: false,
  },
  documents: {
    filterable: {
      documentName: { kind: FieldKind.Text, valueType: 'string' },
      'template.guid': { kind: FieldKind.Id, valueType: 'uuid' },
      versionNumber: { kind: FieldKind.Ordered, valueType: 'number' },
      fileSizeBytes: { kind: FieldKind.Ordered, valueType: 'number' },
      pageCount: { kind: FieldKind.Ordered, valueType: 'number' },
      renderedAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
      createdAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
      updatedAt: { kind: FieldKind.Ordered, valueType: 'datetime' },
      environment: { kind: FieldKind.Enum, enumValues: ['test', 'production'] },
      language: { kind: FieldKind.Enum, valueType: 'string' },
    },
    sortable: ['renderedAt', 'documentName', 'versionNumber', 'fileSizeBytes', 'pageCount', 'renderDuration', 'environment', 'createdAt', 'updatedAt'],
    searchable: true,
  },
  fonts: {
    filterable: {
      family: { kind: FieldKind.Text, valueType: 'string' },
      source: { kind: FieldKind.Enum, enumValues: ['builtin', 'custom'] },
    },
    sortable: ['family', 'source'],
    searchable: true,
  },
} as const satisfies Record<string, ListingContract>;

export type ListingName = keyof typeof LISTINGS;

export enum DocumentType {
  Template = 'Template',
  Invoice = 'Invoice',
}

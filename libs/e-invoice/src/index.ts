export * from './model';
export * from './profiles';
export { checkInvoice, validIban, isCalendarDate } from './rules';
export { buildCiiXml } from './cii';
export { createEInvoice } from './e-invoice';
export type { EInvoiceResult } from './e-invoice';

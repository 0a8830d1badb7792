/**
 * For tests only (`@docrender/e-invoice/testing`): the outside validators of shared/einvoice, and the German example
 * invoices the tests build.
 */
export { ciiValidate, einvoiceOracleDir } from './test/oracles';
export type { OracleRun } from './test/oracles';
export { germanInvoice, germanXRechnung } from './test/german-invoice';

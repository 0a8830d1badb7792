import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, Environment } from '@docrender/contracts';

/** The demo organisation's keys, kept in plaintext in the local data folder so every start can print them again. */
export type DemoKeys = { testKey: string; productionKey: string; webhookSecret: string };

const randomPart = (): string => randomBytes(24).toString('base64url');

/**
 * Reads the demo keys of a previous start, or makes new ones. The file lives under the git-ignored data folder and is
 * a development convenience of one-process mode only: production keys are never stored in plaintext anywhere.
 */
export function loadOrCreateDemoKeys(file: string): { keys: DemoKeys; created: boolean } {
  if (existsSync(file)) return { keys: JSON.parse(readFileSync(file, 'utf8')) as DemoKeys, created: false };
  const keys: DemoKeys = {
    testKey: `${API_KEY_PREFIX[Environment.Test]}${randomPart()}`,
    productionKey: `${API_KEY_PREFIX[Environment.Production]}${randomPart()}`,
    webhookSecret: `whsec_${randomPart()}`,
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return { keys, created: true };
}

/** Fixed ids so the printed curl stays valid across restarts. */
export const DEMO_IDS = {
  organisation: '00000000-0000-4000-8000-000000000001',
  project: '00000000-0000-4000-8000-000000000002',
  invoice: '00000000-0000-4000-8000-000000000010',
  report: '00000000-0000-4000-8000-000000000011',
  letter: '00000000-0000-4000-8000-000000000012',
  certificate: '00000000-0000-4000-8000-000000000013',
  label: '00000000-0000-4000-8000-000000000014',
  ledger: '00000000-0000-4000-8000-000000000015',
  invoiceAr: '00000000-0000-4000-8000-000000000016',
  statement: '00000000-0000-4000-8000-000000000017',
  eInvoice: '00000000-0000-4000-8000-000000000018',
  eInvoiceXRechnung: '00000000-0000-4000-8000-000000000019',
  multilingual: '00000000-0000-4000-8000-00000000001a',
  catalogue: '00000000-0000-4000-8000-00000000001b',
} as const;

/** The seed (docs/seed-file.md) of the demo organisation: every example of examples/, published. */
export function demoSeed(keys: DemoKeys): unknown {
  const example = (id: string, name: string, dir: string, documentNameTemplate: string, translations: boolean) => ({
    id,
    name,
    documentNameTemplate,
    versions: [
      {
        template: { file: `${dir}/template.json` },
        sampleData: { data: { file: `${dir}/data.json` }, i18n: {} },
        translations: translations ? { file: `${dir}/translations.json` } : null,
        documentNameTemplate: null,
        published: true,
      },
    ],
  });
  return {
    organisations: [
      {
        id: DEMO_IDS.organisation,
        name: 'Demo Organisation',
        tier: 'demo',
        includedRendersPerMonth: 1000,
        includedTokensPerMonth: 0,
        retentionDays: 30,
        userCount: 1,
        apiKeys: [keys.testKey, keys.productionKey],
        webhookSecret: keys.webhookSecret,
        projects: [
          {
            id: DEMO_IDS.project,
            name: 'Examples',
            templates: [
              example(DEMO_IDS.invoice, 'Invoice', 'invoice', 'Invoice {{number}}', false),
              example(DEMO_IDS.report, 'Report', 'report', 'Report {{title}}', false),
              example(DEMO_IDS.letter, 'Letter', 'letter', 'Letter to {{recipient.name}}', true),
              example(DEMO_IDS.certificate, 'Certificate', 'certificate', 'Certificate {{participant.name}}', false),
              example(DEMO_IDS.label, 'Shipping label', 'label', 'Label {{shipment.tracking}}', false),
              example(DEMO_IDS.ledger, 'Ledger', 'ledger', 'Ledger {{account}} {{period}}', false),
              example(DEMO_IDS.invoiceAr, 'Tax invoice (Arabic/English)', 'invoice-ar', 'Tax invoice {{number}}', false),
              example(DEMO_IDS.statement, 'Account statement', 'statement', 'Statement {{period}}', false),
              example(DEMO_IDS.eInvoice, 'E-invoice (ZUGFeRD EN 16931)', 'e-invoice', 'Rechnung {{number}}', false),
              example(DEMO_IDS.eInvoiceXRechnung, 'E-invoice (XRechnung)', 'e-invoice-xrechnung', 'XRechnung {{number}}', false),
              example(DEMO_IDS.multilingual, 'Safety notice (twelve languages)', 'multilingual', 'Safety notice {{model}}', false),
              example(DEMO_IDS.catalogue, 'Catalogue (contents with page numbers)', 'catalogue', 'Catalogue {{edition}}', false),
            ],
          },
        ],
      },
    ],
  };
}

/** Custom font families the demo organisation's examples use (the certificate's script face), relative to examples/. */
export const DEMO_FONTS = [
  { family: 'Great Vibes', files: [{ weight: 400, style: 'normal' as const, path: 'certificate/fonts/great-vibes-latin-400-normal.woff2' }] },
];

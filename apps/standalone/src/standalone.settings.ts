import { setting } from '@docrender/config';

export const standaloneSettings = {
  seedDemo: setting.bool('SEED_DEMO', 'One-process mode: create the demo organisation with the examples on start (idempotent).', true),
  demoKeysFile: setting.string(
    'DEMO_KEYS_FILE',
    'One-process mode: where the demo organisation keys are kept in plaintext so each start can print them (development only).',
    '.data/demo-keys.json',
  ),
};

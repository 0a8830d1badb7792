import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { codeSvg } from './codes';

const run = promisify(execFile);
const LEVELS = ['L', 'M', 'Q', 'H'] as const;

/** The symbol codeSvg draws, rasterised from its SVG path (4 pixels per module, quiet zone included) as a binary PGM. */
function pgm(svg: string): Buffer {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const scale = 4;
  const width = side * scale;
  const pixels = Buffer.alloc(width * width, 255);
  for (const [, x, y, w] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      const row = (Number(y) * scale + dy) * width;
      pixels.fill(0, row + Number(x) * scale, row + (Number(x) + Number(w)) * scale);
    }
  }
  return Buffer.concat([Buffer.from(`P5 ${width} ${width} 255\n`), pixels]);
}

/** The bytes zbarimg (zbar-tools) reads from the picture, without its guess of a character set (-Sbinary). */
async function zbarBytes(file: string): Promise<Buffer> {
  const { stdout } = await run('zbarimg', ['--quiet', '--raw', '-Sbinary', file], { encoding: 'buffer' });
  return stdout as unknown as Buffer;
}

describe('QR codes by qrcode read back by zbar (decision 0019)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docrender-qr-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a corpus of template values (digits, upper-case, mixed, non-ASCII, the invoice payment code) reads back as the UTF-8 bytes of the value', async () => {
    const corpus = [
      'BCD\n002\n1\nSCT\nGENODEF1XXX\nMusterfirma GmbH\nDE89370400440532013000\nEUR1234.56\n\nRE-2026-00042',
      'Grüße € — https://example.com/?a=1&b=2',
      ...fc.sample(
        fc.oneof(
          fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 200 }),
          fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:'), minLength: 1, maxLength: 200 }),
          fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \n-./:€üß'), minLength: 1, maxLength: 300 }),
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }),
        ),
        { numRuns: 80, seed: 23 },
      ),
    ];
    const misread: { value: string; level: string; read: string }[] = [];
    for (const [i, value] of corpus.entries()) {
      const level = LEVELS[i % LEVELS.length];
      const outcome = codeSvg('qr', value, { showText: false, errorCorrection: level });
      if (!outcome.ok) throw new Error(outcome.reason);
      const file = path.join(dir, `${i}.pgm`);
      await writeFile(file, pgm(outcome.svg));
      const bytes = await zbarBytes(file);
      if (!bytes.equals(Buffer.from(value, 'utf8'))) misread.push({ value, level, read: bytes.toString('utf8') });
    }
    expect(misread).toEqual([]);
  }, 120_000);
});

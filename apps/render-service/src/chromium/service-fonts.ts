import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCRIPT_FONTS, scriptFontFiles } from '@docrender/template-dsl';

/**
 * Languages (fontconfig `lang`, from the document's `lang` attribute, which Chromium hands to its font fallback) and
 * the Noto Sans CJK variant whose glyph forms they read: Han characters differ between the variants.
 */
const CJK_VARIANT_BY_LANG: readonly (readonly [string, string])[] = [
  ['ja', 'JP'],
  ['ko', 'KR'],
  ['zh-cn', 'SC'],
  ['zh-sg', 'SC'],
  ['zh-tw', 'TC'],
  ['zh-hk', 'HK'],
  ['zh-mo', 'HK'],
];

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The fontconfig configuration of the render service's Chromium (issue 33 item 2, decision 0030): one font directory
 * holding links to the built-in script fonts (SCRIPT_FONTS) and nothing else — no system directory, no user directory,
 * no `conf.d` — so a host's fonts never reach a document. The generic families name Noto Sans; a document in Japanese,
 * Korean or Chinese gets the Noto Sans CJK variant of its language first; in any other language fontconfig's own
 * fallback picks a variant for Han text. Adding a CJK family to every pattern instead made each print about 3× slower
 * (every text run's fallback list then opened the CJK collection).
 */
export function fontConfigXml(fontDir: string, cacheDir: string): string {
  const match = (lang: string | null, variant: string): string =>
    '  <match target="pattern">\n' +
    (lang === null ? '' : `    <test name="lang" compare="contains"><string>${lang}</string></test>\n`) +
    `    <edit name="family" mode="append"><string>Noto Sans CJK ${variant}</string></edit>\n` +
    '  </match>\n';
  return (
    '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n' +
    `  <dir>${escapeXml(fontDir)}</dir>\n  <cachedir>${escapeXml(cacheDir)}</cachedir>\n` +
    '  <config><rescan><int>0</int></rescan></config>\n' +
    ['sans-serif', 'serif', 'monospace', 'system-ui']
      .map((generic) => `  <alias binding="same"><family>${generic}</family><prefer><family>Noto Sans</family></prefer></alias>\n`)
      .join('') +
    CJK_VARIANT_BY_LANG.map(([lang, variant]) => match(lang, variant)).join('') +
    '</fontconfig>\n'
  );
}

/**
 * Writes the configuration (and the directory of links it names) under the system's temporary directory, in a
 * directory named by its content, and gives the path for `FONTCONFIG_FILE`. Called for every browser launched: what a
 * cleaner of the temporary directory removed in between is made again. Throws, naming the files
 * and Debian packages, when a built-in script font is not installed: the service does not print with other fonts.
 */
export function serviceFontConfigFile(root: string = path.join(os.tmpdir(), `docrender-fonts-${os.userInfo().uid}`)): string {
  const files = scriptFontFiles();
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    const packages = [...new Set(SCRIPT_FONTS.filter((f) => scriptFontFiles(f).some((file) => missing.includes(file))).map((f) => f.package))];
    throw new Error(`The built-in script fonts are not installed (missing ${missing.join(', ')}): install the Debian packages ${packages.join(' ')}.`);
  }
  const dir = path.join(root, createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16));
  const fontDir = path.join(dir, 'fonts');
  const cacheDir = path.join(dir, 'cache');
  mkdirSync(fontDir, { recursive: true });
  mkdirSync(cacheDir, { recursive: true });
  for (const file of files) {
    const link = path.join(fontDir, path.basename(file));
    if (existsSync(link)) continue;
    try {
      symlinkSync(file, link);
    } catch (error) {
      // another process linked it first
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const configFile = path.join(dir, 'fonts.conf');
  // written whole then renamed: a Chromium started by another process never reads half a file
  const partial = `${configFile}.${process.pid}`;
  writeFileSync(partial, fontConfigXml(fontDir, cacheDir));
  renameSync(partial, configFile);
  return configFile;
}

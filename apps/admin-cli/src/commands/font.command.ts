import { FONT_FORMATS, fontFormatOf, matchesFontFormat, registerFontFamily, type FontFileUpload, type FontStyle } from '@docrender/organisation-resources';
import { UsageError } from '../cli/cli-arguments';
import { defineOrganisationCommand, option } from '../cli/command';
import { readArgumentFile } from '../cli/read-file';

/** `<weight>:<style>:<path>`, e.g. `700:italic:fonts/Acme-BoldItalic.woff2`. */
async function parseFileArgument(value: string, baseDir: string): Promise<FontFileUpload> {
  const match = /^(\d{1,4}):(normal|italic):(.+)$/.exec(value);
  if (!match) throw new UsageError('--file', `must be <weight>:<normal|italic>:<path>, got '${value}'`);
  const weight = Number(match[1]);
  if (weight < 1 || weight > 1000) throw new UsageError('--file', `weight must be from 1 to 1000, got ${weight}`);
  const file = match[3];
  const format = fontFormatOf(file);
  if (!format) throw new UsageError('--file', `${file}: the extension must be one of ${FONT_FORMATS.join(', ')}`);
  const bytes = await readArgumentFile('--file', baseDir, file);
  if (!matchesFontFormat(bytes, format)) throw new UsageError('--file', `${file} is not a ${format} font file`);
  return { weight, style: match[2] as FontStyle, format, bytes };
}

export const addFontCommand = defineOrganisationCommand({
  name: 'add-font',
  summary: 'Add a custom font family (or more variants of one) from font files; the files go to the blob store.',
  options: {
    family: option.value('<name>', 'the fontFamily templates will use (required)'),
    file: { ...option.value('<weight>:<normal|italic>:<path>', 'a woff2/woff/ttf/otf file; repeat for each variant (at least one)'), multiple: true },
  },
  async prepare(args, baseDir) {
    const organisationId = args.uuid('org');
    const family = args.string('family');
    if (!/^[\p{L}\p{N} _-]{1,100}$/u.test(family)) throw new UsageError('--family', 'may hold letters, digits, spaces, _ and - (at most 100)');
    const values = args.list('file');
    if (values.length === 0) throw new UsageError('--file', 'is required (at least one)');
    const files = await Promise.all(values.map((v) => parseFileArgument(v, baseDir)));
    const variants = new Set(files.map((f) => `${f.weight}:${f.style}`));
    if (variants.size !== files.length) throw new UsageError('--file', 'the same weight and style is given twice');
    return { organisationId, family, files };
  },
  async run(input, context) {
    const family = await registerFontFamily(context.database.fonts, await context.blobStore(), input, context.now());
    return { id: family.id, organisationId: family.organisationId, family: family.family, files: family.files.map(({ id: _id, ...file }) => file) };
  },
});

import { RecordNotFoundError } from '@docrender/persistence';
import { checkTemplateVersion, templateErrorLines, type TemplateVersionContent } from '@docrender/template-dsl/checks';
import { UsageError } from '../cli/cli-arguments';
import { defineOrganisationCommand, option } from '../cli/command';
import { readJsonObject } from '../cli/read-file';

/**
 * The render's own check of a version (checkTemplateVersion): a version a render would refuse is neither stored nor
 * published. `argument` is the option the error names.
 */
function refuseInvalidVersion(argument: string, version: TemplateVersionContent): void {
  const check = checkTemplateVersion(version);
  if (!check.ok) throw new UsageError(argument, `the template version is invalid: ${templateErrorLines(check.errors).join('; ')}`);
}

/** Recorded as updatedBy / publishedBy unless --author is given. */
const DEFAULT_AUTHOR = 'admin-cli';

export const importTemplateCommand = defineOrganisationCommand({
  name: 'import-template',
  summary: 'Import a template version from a DSL file, as a draft or published (--publish); a version a render would refuse is refused.',
  options: {
    dsl: option.value('<file.json>', 'the template DSL (required)'),
    template: option.uuid('add a version to this template, or'),
    name: option.text('create a new template with this name'),
    project: option.uuid('project of the new template (with --name)'),
    'sample-data': option.value('<file.json>', 'sample data: { "data": …, "i18n": … }, or plain data (wrapped as data); default {}'),
    translations: option.value('<file.json>', 'translation strings (default none)'),
    'document-name-template': option.text("the version's document-name template (also the new template's, with --name)"),
    publish: option.flag('publish the version (default: draft)'),
    author: option.text(`recorded as updatedBy/publishedBy (default ${DEFAULT_AUTHOR})`),
  },
  async prepare(args, baseDir) {
    const templateId = args.optionalUuid('template');
    const name = args.optionalString('name');
    if ((templateId === undefined) === (name === undefined)) {
      throw new UsageError('--template', 'give either --template <uuid> (new version of a template) or --name <text> (new template)');
    }
    const projectId = args.optionalUuid('project');
    if (projectId !== undefined && templateId !== undefined) throw new UsageError('--project', 'only goes with --name (a new template)');
    const organisationId = args.uuid('org');
    const dsl = await readJsonObject('--dsl', baseDir, args.string('dsl'));
    const sampleFile = args.optionalString('sample-data');
    const sample = sampleFile === undefined ? { data: {}, i18n: {} } : await readJsonObject('--sample-data', baseDir, sampleFile);
    const sampleData = 'data' in sample ? { ...sample, i18n: sample.i18n ?? {} } : { data: sample, i18n: {} };
    const translationsFile = args.optionalString('translations');
    const translations = translationsFile === undefined ? null : await readJsonObject('--translations', baseDir, translationsFile);
    const documentNameTemplate = args.optionalString('document-name-template') ?? null;
    refuseInvalidVersion('--dsl', { template: dsl, translations, documentNameTemplate });
    return {
      organisationId,
      target: templateId !== undefined ? ({ kind: 'existing', templateId } as const) : ({ kind: 'new', name: name ?? '', projectId: projectId ?? null } as const),
      content: {
        templateJson: JSON.stringify(dsl),
        sampleData: JSON.stringify(sampleData),
        translations: translations === null ? null : JSON.stringify(translations),
        documentNameTemplate,
      },
      publish: args.flag('publish'),
      author: args.optionalString('author') ?? DEFAULT_AUTHOR,
    };
  },
  async run(input, context) {
    const now = context.now();
    return context.database.transaction(async (r) => {
      let templateId: string;
      let templateName: string;
      if (input.target.kind === 'existing') {
        const template = await r.templates.findById(input.organisationId, input.target.templateId);
        if (!template) throw new UsageError('--template', `no template ${input.target.templateId} in organisation ${input.organisationId}`);
        templateId = template.id;
        templateName = template.name;
      } else {
        if (input.target.projectId !== null && !(await r.projects.findById(input.organisationId, input.target.projectId))) {
          throw new UsageError('--project', `no project ${input.target.projectId} in organisation ${input.organisationId}`);
        }
        const created = await r.templates.create(
          {
            organisationId: input.organisationId,
            projectId: input.target.projectId,
            name: input.target.name,
            documentNameTemplate: input.content.documentNameTemplate,
            updatedBy: input.author,
          },
          now,
        );
        templateId = created.id;
        templateName = created.name;
      }
      const version = await r.templateVersions.addVersion(templateId, input.content, { author: input.author, publish: input.publish, now });
      return {
        templateId,
        templateName,
        versionId: version.id,
        versionNumber: version.versionNumber,
        published: version.publishedAt !== null,
        publishedAt: version.publishedAt?.toISOString() ?? null,
      };
    });
  },
});

export const publishVersionCommand = defineOrganisationCommand({
  name: 'publish-version',
  summary: 'Publish a draft version (publishing a published version changes nothing).',
  options: {
    template: option.uuid('the template (required)'),
    version: option.count('the version number (required)'),
    author: option.text(`recorded as publishedBy (default ${DEFAULT_AUTHOR})`),
  },
  prepare: (args) => {
    const version = args.optionalInt('version', { min: 1 });
    if (version === undefined) throw new UsageError('--version', 'is required');
    return { organisationId: args.uuid('org'), templateId: args.uuid('template'), versionNumber: version, author: args.optionalString('author') ?? DEFAULT_AUTHOR };
  },
  async run(input, context) {
    if (!(await context.database.templates.findById(input.organisationId, input.templateId))) {
      throw new UsageError('--template', `no template ${input.templateId} in organisation ${input.organisationId}`);
    }
    const stored = await context.database.templateVersions.findByNumber(input.templateId, input.versionNumber);
    if (!stored) throw new UsageError('--version', `template ${input.templateId} has no version ${input.versionNumber}`);
    if (stored.publishedAt === null) {
      // A draft stored before versions were checked at the door, or whose check has since tightened.
      refuseInvalidVersion('--version', { template: stored.templateJson, translations: stored.translations, documentNameTemplate: stored.documentNameTemplate });
    }
    try {
      const version = await context.database.templateVersions.publish(input.templateId, input.versionNumber, input.author, context.now());
      return {
        templateId: version.templateId,
        versionNumber: version.versionNumber,
        publishedAt: version.publishedAt?.toISOString() ?? null,
        publishedBy: version.publishedBy,
      };
    } catch (error) {
      if (error instanceof RecordNotFoundError) throw new UsageError('--version', `template ${input.templateId} has no version ${input.versionNumber}`);
      throw error;
    }
  },
});

import { RetentionPurge } from '@docrender/persistence';
import { UsageError } from '../cli/cli-arguments';
import { defineCommand, option } from '../cli/command';

const DURATION = /^(\d+)([dh])$/;

/** An ISO 8601 time, or an age such as `30d` / `12h` counted back from now. */
function parseCutoff(value: string, now: Date): Date {
  const age = DURATION.exec(value);
  if (age) return new Date(now.getTime() - Number(age[1]) * (age[2] === 'd' ? 86_400_000 : 3_600_000));
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw new UsageError('--older-than', `must be an ISO 8601 time or an age like 30d or 12h, got '${value}'`);
  return at;
}

export const purgePdfsCommand = defineCommand({
  name: 'purge-pdfs',
  summary: 'Delete stored PDFs past retention; their metadata stays (isPdfDeleted, download 410 PdfDeleted).',
  options: {
    'older-than': option.value('<ISO time | 30d | 12h>', 'purge PDFs rendered before this time, or'),
    'by-policy': option.flag("purge by each organisation's retentionDays"),
    org: option.uuid('only this organisation (with --older-than)'),
  },
  prepare(args) {
    const olderThan = args.optionalString('older-than');
    const byPolicy = args.flag('by-policy');
    if ((olderThan === undefined) === !byPolicy) throw new UsageError('--older-than', 'give either --older-than <time> or --by-policy');
    const organisationId = args.optionalUuid('org');
    if (byPolicy && organisationId !== undefined) throw new UsageError('--org', 'only goes with --older-than');
    if (olderThan !== undefined) parseCutoff(olderThan, new Date());
    return { olderThan, organisationId };
  },
  async run(input, context) {
    const now = context.now();
    const purge = new RetentionPurge(context.database.documents, await context.blobStore());
    if (input.olderThan === undefined) {
      return { mode: 'retention-policy', ...(await purge.purgeByRetentionPolicy(now)) };
    }
    const cutoff = parseCutoff(input.olderThan, now);
    return { mode: 'older-than', cutoff: cutoff.toISOString(), ...(await purge.purgeOlderThan(cutoff, { organisationId: input.organisationId, now })) };
  },
});

import { JobState, WebhookEvent, type JobStatusDto } from '@docrender/contracts';
import type { AsyncStack, TemplateContent } from '@docrender/testing';
import { parseCallback } from '@docrender/webhooks';

/** A one-page template for the real render service: a heading with the document's number. */
export const NUMBERED_TEMPLATE: TemplateContent = {
  templateJson: JSON.stringify({ dsl: 1, name: 'Resilience', body: [{ type: 'text', id: 'title', text: 'Document {{ number }}' }] }),
  sampleData: JSON.stringify({ data: { number: 'S-1' }, i18n: {} }),
  translations: null,
};

export const numberedDocuments = (n: number): { number: string }[] => Array.from({ length: n }, (_, i) => ({ number: `R-${i + 1}` }));

/** How a finished job accounts for its documents: rendered, explained by an issue, or neither (lost). */
export type JobAccount = { rendered: number; explained: number; lost: number; duplicatedCallbacks: number; state: JobState | 'unfinished' };

/**
 * Accounts for one job: documents rendered, missing ones with an issue naming their documentIndex, and the rest
 * (lost). Duplicated: documents whose progress callback reached the receiver more than once.
 */
export function accountFor(stack: AsyncStack, status: JobStatusDto | null, jobId: string, requested: number): JobAccount {
  const progress = new Map<number, number>();
  for (const callback of stack.callbacksOf(jobId)) {
    if (callback.event !== WebhookEvent.Progress) continue;
    const body = parseCallback(callback.rawBody).body as { documentIndex?: number };
    if (typeof body.documentIndex === 'number') progress.set(body.documentIndex, (progress.get(body.documentIndex) ?? 0) + 1);
  }
  const duplicatedCallbacks = [...progress.values()].filter((n) => n > 1).length;
  if (status === null || status.state === JobState.Pending) return { rendered: 0, explained: 0, lost: requested, duplicatedCallbacks, state: 'unfinished' };
  const explainedIndexes = new Set(status.issues.filter((i) => i.severity === 'Error').map((i) => i.documentIndex).filter((i): i is number => i !== null));
  const explained = Math.min(explainedIndexes.size, requested - status.renderedCount);
  return { rendered: status.renderedCount, explained, lost: requested - status.renderedCount - explained, duplicatedCallbacks, state: status.state };
}

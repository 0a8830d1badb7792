import type { JobAcceptedDto, JobStatusDto } from '@docrender/contracts';
import type { RequestOptions } from '../http/http-transport';
import { readJson } from '../http/response-body';
import { SHAPES } from '../http/response-shapes';
import { waitForJob, type WaitOptions } from '../jobs/job-waiter';
import { getJson, segment, type ClientContext } from './client-context';
import { renderCall, renderPath, renderQuery, type DocumentData, type RenderOptions } from './renders.resource';

export type EnqueueOptions = RenderOptions & {
  /** The URL that receives the progress and completion callbacks (spec part 6); required by the service. */
  callbackUrl: string;
};

/** Asynchronous render jobs of spec 4.5 and 4.6. */
export class JobsResource {
  constructor(private readonly context: ClientContext) {}

  /**
   * Enqueues an asynchronous batch (202). Never retried, even on 503 QueueFull (thrown as ServerError with that code:
   * back off and enqueue again yourself).
   */
  enqueue(templateId: string, documents: readonly DocumentData[], options: EnqueueOptions): Promise<JobAcceptedDto> {
    return this.context.transport.send(
      renderCall(
        this.context,
        {
          path: `${renderPath(templateId, options.version)}/async`,
          query: renderQuery(options),
          json: {
            documents,
            callbackUrl: options.callbackUrl,
            ...(options.includeDocument === undefined ? {} : { includeDocument: options.includeDocument }),
          },
          accept: 'application/json',
        },
        options,
      ),
      (response, request) => readJson<JobAcceptedDto>(response, request, SHAPES.jobAccepted),
    );
  }

  /** The job's state, outcome, exact counts and (at most 100) issues. */
  get(jobId: string, options: RequestOptions = {}): Promise<JobStatusDto> {
    return getJson(this.context, { path: `/v1/render/jobs/${segment(jobId)}` }, options, (response, request) => readJson<JobStatusDto>(response, request, SHAPES.jobStatus));
  }

  /**
   * Polls the job (every 2 s by default) until its state is no longer `pending`, and answers that status. A state this
   * SDK does not know counts as terminal (spec 9.4). Waiting never cancels the job: on timeout or abort only the
   * polling stops.
   * @throws JobWaitTimeoutError after `timeoutMs`
   */
  wait(jobId: string, options: WaitOptions = {}): Promise<JobStatusDto> {
    return waitForJob((signal) => this.get(jobId, { signal }), jobId, options);
  }
}

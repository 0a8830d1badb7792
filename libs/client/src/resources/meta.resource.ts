import type { VersionProbeDto } from '@docrender/contracts';
import type { RequestOptions } from '../http/http-transport';
import { readJson } from '../http/response-body';
import { SHAPES } from '../http/response-shapes';
import { getJson, type ClientContext } from './client-context';

/** The readiness probe's answer: ready (200), or not, with the service's plain-text reason (503). */
export type ServiceStatus = { ready: true } | { ready: false; reason: string };

/** The anonymous probes of spec 4.17 (no key is sent). */
export class MetaResource {
  constructor(private readonly context: ClientContext) {}

  /**
   * Whether the database and blob storage respond. The probe's 503 is an answer here (`ready: false` with the reason),
   * not an exception, and is not retried: a probe reports the state of the moment.
   */
  status(options: RequestOptions = {}): Promise<ServiceStatus> {
    return getJson(
      this.context,
      { path: '/v1/meta/status', anonymous: true, passStatuses: [503] },
      options,
      async (response): Promise<ServiceStatus> => (response.ok ? (await response.arrayBuffer(), { ready: true }) : { ready: false, reason: (await response.text()).trim() }),
    );
  }

  /** The deployed build version, or `unknown`. */
  version(options: RequestOptions = {}): Promise<VersionProbeDto> {
    return getJson(this.context, { path: '/v1/meta/version', anonymous: true }, options, (response, request) =>
      readJson<VersionProbeDto>(response, request, SHAPES.versionProbe),
    );
  }
}

import { ConfigOf, egressSettings, loadSettings, renderSettings } from '@docrender/config';

/** Everything the render service reads from the environment: its own RENDER_* settings and the egress policy. */
export const renderServiceSettings = { ...renderSettings, ...egressSettings };

export type RenderServiceSettings = ConfigOf<typeof renderServiceSettings>;

/** The render service's settings read from `env` (tests and benches; the service itself reads them at start). */
export function loadRenderServiceSettings(env: NodeJS.ProcessEnv): RenderServiceSettings {
  return loadSettings(renderServiceSettings, env);
}

export const RENDER_SETTINGS = Symbol('RenderServiceSettings');

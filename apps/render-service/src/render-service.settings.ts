import { ConfigOf, egressSettings, loadSettings, renderSettings } from '@docrender/config';

/** Everything the render service reads from the environment: its own RENDER_* settings and the egress policy. */
export const renderServiceSettings = { ...renderSettings, ...egressSettings };

export type RenderServiceSettings = ConfigOf<typeof renderServiceSettings>;

export function loadRenderServiceSettings(env: NodeJS.ProcessEnv = process.env): RenderServiceSettings {
  return loadSettings(renderServiceSettings, env);
}

export const RENDER_SETTINGS = Symbol('RenderServiceSettings');
export const RENDER_LOGGER = Symbol('RenderServiceLogger');

/** The gateway's render settings (RenderApiSettings from @docrender/config), read once at start. */
export const RENDER_API_SETTINGS = Symbol('RenderApiSettings');

/**
 * The gateway's render settings (RenderApiSettings from @docrender/config: body limits, inline sizes, threads), read
 * once at start and provided by RequestBodyModule to the body reader and to the render endpoints.
 */
export const RENDER_API_SETTINGS = Symbol('RenderApiSettings');

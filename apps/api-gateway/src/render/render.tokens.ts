/** The gateway's render settings (RenderApiSettings from @docrender/config), read once at start. */
export const RENDER_API_SETTINGS = Symbol('RenderApiSettings');

/** The egress policy (EgressPolicy) the validate endpoint's image checks apply, shared with its worker threads. */
export const VALIDATION_EGRESS_POLICY = Symbol('ValidationEgressPolicy');

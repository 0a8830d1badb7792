/** How long past the render budget a preview waits for the render service's reply (RENDER_API_REPLY_GRACE_MS). */
export const PREVIEW_REPLY_GRACE_MS = Symbol('PREVIEW_REPLY_GRACE_MS');

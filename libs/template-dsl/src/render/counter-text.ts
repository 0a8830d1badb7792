/** What `pageNumber` and `totalPages` are in band text: replaced by the spans Chromium fills, wherever they end up. */
export const COUNTER_TEXT = { pageNumber: '\ue000pageNumber\ue001', totalPages: '\ue000totalPages\ue001' };
export const COUNTER_IN_HTML = /\ue000(pageNumber|totalPages)\ue001/g;
export const COUNTER_OR_TAG = /<[^>]*>|\ue000(pageNumber|totalPages)\ue001/g;

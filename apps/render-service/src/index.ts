export { RenderServiceModule, chromiumCheck } from './render-service.module';
export { renderService } from './render-service.definition';
export { renderServiceSettings, RenderServiceSettings, loadRenderServiceSettings } from './render-service.settings';
export { locateChromium, findChromium, ChromiumNotFoundError } from './chromium/chromium-executable';
export { renderPrefetch } from './render.consumer';
export { laidOutForPrintOnly, printPdfOnPage, PdfPrintOptions } from './chromium/page-printer';

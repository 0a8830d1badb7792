export * from './render.module';
export { jsonBodyParserType, isRenderBodyRequest } from './body/render-body.routes';

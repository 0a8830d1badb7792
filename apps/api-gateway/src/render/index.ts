export * from './render.module';
export { RequestBodyModule } from './body/request-body.module';
export { RenderBodyParser } from './body/render-body.parser';

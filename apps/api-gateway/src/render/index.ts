export * from './render.module';
export { RequestBodyModule } from '../request-body/request-body.module';
export { RenderBodyParser } from '../request-body/render-body.parser';

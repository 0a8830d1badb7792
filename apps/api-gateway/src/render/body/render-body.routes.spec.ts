import type { IncomingMessage } from 'node:http';
import { isRenderBodyRequest, jsonBodyParserType, mediaTypeOf } from './render-body.routes';

const id = '6f1c2f7e-8a55-4a8e-9d3e-0d6b2a1c9e11';

describe('the routes whose bodies the render controllers read', () => {
  it.each([
    '/v1/render',
    `/v1/render/${id}`,
    `/v1/render/${id}/`,
    `/v1/render/${id}?persist=false&language=de`,
    `/v1/render/${id}/versions/3`,
    `/v1/render/${id}/validate`,
    `/v1/render/${id}/versions/3/validate`,
    `/V1/Render/${id}/Versions/3`,
  ])('POST %s', (url) => {
    expect(isRenderBodyRequest({ method: 'POST', url })).toBe(true);
  });

  it.each([
    ['POST', `/v1/render/${id}/async`],
    ['POST', `/v1/render/${id}/versions/3/async`],
    ['GET', `/v1/render/jobs/${id}`],
    ['GET', `/v1/render/${id}`],
    ['PATCH', `/v1/templates/${id}/versions/1/document-name-template`],
    ['POST', '/v1/renderer'],
  ])('not %s %s', (method, url) => {
    expect(isRenderBodyRequest({ method, url })).toBe(false);
  });

  it('the global JSON parser takes JSON bodies except those of render routes', () => {
    const request = (method: string, url: string, contentType?: string) =>
      ({ method, url, headers: contentType === undefined ? {} : { 'content-type': contentType } }) as IncomingMessage;
    expect(jsonBodyParserType(request('PATCH', '/v1/templates/x/versions/1/document-name-template', 'application/json; charset=utf-8'))).toBe(true);
    expect(jsonBodyParserType(request('POST', `/v1/render/${id}/async`, 'application/json'))).toBe(true);
    expect(jsonBodyParserType(request('POST', `/v1/render/${id}`, 'application/json'))).toBe(false);
    expect(jsonBodyParserType(request('PATCH', '/v1/templates/x', 'text/plain'))).toBe(false);
    expect(jsonBodyParserType(request('PATCH', '/v1/templates/x'))).toBe(false);
  });

  it('reads the media type of a Content-Type header', () => {
    expect(mediaTypeOf(' Application/JSON ; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(undefined)).toBeNull();
  });
});

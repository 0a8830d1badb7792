import { BadRequestError, UnprocessableEntityError } from '@docrender/client';
import { refusedCallbackUrl } from './async-render';

const details = (status: number, code: string, serviceMessage: string) => ({ status, code, serviceMessage, errorId: null, request: 'POST /v1/render/t/async', body: {} });

describe('a callback URL refused at enqueue (spec 4.5; issue 22: the CLI says why and which setting allows it locally)', () => {
  it('4.5: a 422 BindingError naming callbackUrl becomes one line with the URL, the service’s reason and the two egress settings', () => {
    const refused = new UnprocessableEntityError(
      details(422, 'BindingError', 'callbackUrl must be an https URL (EGRESS_ALLOW_HTTP=true allows http:// for local development)'),
    );
    const error = refusedCallbackUrl(refused, 'http://127.0.0.1:4000/cb');
    expect(error?.message).toBe(
      'the service refused the callback URL http://127.0.0.1:4000/cb: callbackUrl must be an https URL (EGRESS_ALLOW_HTTP=true allows http:// for ' +
        'local development). A service on this machine calls an http:// or localhost receiver only when started with EGRESS_ALLOW_HTTP=true and ' +
        'EGRESS_ALLOW_PRIVATE=true (development only); otherwise give a public https:// --callback-url',
    );
    expect(error?.message).not.toContain('\n');
  });

  it('other enqueue errors are left as they are', () => {
    expect(refusedCallbackUrl(new UnprocessableEntityError(details(422, 'BindingError', 'documents must be an array of objects')), 'https://x.example')).toBeNull();
    expect(refusedCallbackUrl(new BadRequestError(details(400, 'ValidationError', 'callbackUrl test-key cap')), 'https://x.example')).toBeNull();
    expect(refusedCallbackUrl(new Error('callbackUrl'), 'https://x.example')).toBeNull();
  });
});

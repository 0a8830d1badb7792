import { Global, Module } from '@nestjs/common';
import { signedLinkConfigFromEnv, ViewUrlSigner } from '@docrender/platform';

/** Provides ViewUrlSigner (PUBLIC_BASE_URL, VIEW_URL_SECRET read at start) to every module of the gateway. */
@Global()
@Module({
  providers: [{ provide: ViewUrlSigner, useFactory: () => new ViewUrlSigner(signedLinkConfigFromEnv()) }],
  exports: [ViewUrlSigner],
})
export class ViewUrlModule {}

import { Global, Module } from '@nestjs/common';
import { Settings } from '@docrender/config';
import { signedLinkConfig, ViewUrlSigner } from '@docrender/platform';

/** Provides ViewUrlSigner (PUBLIC_BASE_URL, VIEW_URL_SECRET read at start) to every module of the gateway. */
@Global()
@Module({
  providers: [{ provide: ViewUrlSigner, useFactory: (settings: Settings) => new ViewUrlSigner(signedLinkConfig(settings)), inject: [Settings] }],
  exports: [ViewUrlSigner],
})
export class ViewUrlModule {}

/**
 * Command-line flags of every pooled Chromium (verified headless as root on Chromium 156, docs/machine-notes):
 * - no sandbox/GPU/first-run/background services, no shared-memory use that small container /dev/shm breaks;
 * - no route out: every host name resolves to nothing (`MAP * ~NOTFOUND`, IP literals included), and every request,
 *   loopback included (`<-loopback>`), goes through a proxy that refuses all connections; QUIC and WebRTC UDP are off.
 *   Request interception in each page is a second layer; neither alone is enough (WebSocket and worker traffic
 *   bypass interception).
 * - the user agent becomes the PDF /Creator (Chromium writes its user agent there).
 */
export function chromiumFlags(refusingProxyPort: number, creator: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--disable-extensions',
    '--disable-default-apps',
    '--mute-audio',
    '--hide-scrollbars',
    '--dns-prefetch-disable',
    '--host-resolver-rules=MAP * ~NOTFOUND',
    `--proxy-server=http://127.0.0.1:${refusingProxyPort}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    `--user-agent=${creator}`,
  ];
}

/** `QRCode.create` also takes the segments `qrcode/lib/core/segments` made (it rebuilds them from `data` and `mode`). */
import type { GeneratedQRCodeSegment, QRCode, QRCodeOptions } from 'qrcode';

declare module 'qrcode' {
  export function create(segments: GeneratedQRCodeSegment[], options?: QRCodeOptions): QRCode;
}

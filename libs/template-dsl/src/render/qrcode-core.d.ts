/**
 * The parts of `qrcode`'s core that codes.ts uses besides `create` (decision 0019): its segmentation and the smallest
 * version a list of segments fits, so that the error correction level can be raised within that version before the
 * one encoding. `create` takes the segments it made back as its input (`Segments.fromArray`): qrcode-create.d.ts.
 */

declare module 'qrcode/lib/core/segments' {
  import type { GeneratedQRCodeSegment } from 'qrcode';
  /** The shortest segmentation of `text` into numeric, alphanumeric and byte segments for a symbol of `version`. */
  export function fromString(text: string, version: number): GeneratedQRCodeSegment[];
  /** One segment per run of characters of the same mode: qrcode's first estimate of the version. */
  export function rawSplit(text: string): GeneratedQRCodeSegment[];
}

declare module 'qrcode/lib/core/version' {
  import type { GeneratedQRCodeSegment, QRCodeErrorCorrectionLevel } from 'qrcode';
  /** The smallest version that holds the segments at the level, undefined when none does. */
  export function getBestVersionForData(segments: GeneratedQRCodeSegment[], level: QRCodeErrorCorrectionLevel): number | undefined;
}

import { ApiError } from './api';

/** The text of a failed call, for a page's problem line. */
export const message = (error: unknown): string => (error instanceof ApiError ? error.message : (error as Error).message);

/** A chosen file's bytes as Base64, for the upload routes' JSON bodies (fonts, assets). */
export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

// What an organisation registers for its templates to use: custom font families and assets (images, PDFs). The rules (names,
// formats, sizes, blobs first and rows after) are here; persistence keeps the rows, the blob store the files.
export * from './fonts/font-family-registration';
export * from './assets/organisation-assets';

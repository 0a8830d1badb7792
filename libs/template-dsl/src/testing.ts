/** Test instruments of the DSL for other projects' tests (`@docrender/template-dsl/testing`, re-exported by `@docrender/testing`). */
export { notOkDocument, notOkDocumentNames, NOT_OK_DIR, NotOkDocument, ExpectedIssue, Grow } from './testing/not-ok-documents';

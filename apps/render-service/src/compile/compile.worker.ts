import { serveWorkerRequests } from '@docrender/platform/workers';
import { warmUp } from '@docrender/template-dsl';
import { CompileTask, type CompileReply, type ThreadRequest } from './compile-task';

/** A compile thread of the render service (DocumentCompiler): runs CompileTask for each request it is given (compiles and archival stages). */
const task = new CompileTask();
// the first document's work done before serving: neither the first after a start nor after a replacement waits for it
warmUp();
serveWorkerRequests<ThreadRequest, CompileReply>((request) => task.run(request));

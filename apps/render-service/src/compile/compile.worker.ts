import { serveWorkerRequests } from '@docrender/platform/workers';
import { CompileTask, type CompileReply, type ThreadRequest } from './compile-task';

/** A compile thread of the render service (DocumentCompiler): runs CompileTask for each request it is given (compiles and archival stages). */
const task = new CompileTask();
serveWorkerRequests<ThreadRequest, CompileReply>((request) => task.run(request));

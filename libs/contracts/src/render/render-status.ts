/** Spec 3.2 render outcome. */
export enum RenderStatus {
  Ok = 'ok',
  Partial = 'partial',
  Failed = 'failed',
  InsufficientCredit = 'insufficient_credit',
}

/** The outcome vocabulary of spec 3.2, from counts. `creditStopped` wins when credit ran out. */
export function renderStatusOf(requested: number, rendered: number, creditStopped: boolean): RenderStatus {
  if (creditStopped) return RenderStatus.InsufficientCredit;
  if (rendered === 0 && requested > 0) return RenderStatus.Failed;
  if (rendered < requested) return RenderStatus.Partial;
  return RenderStatus.Ok;
}

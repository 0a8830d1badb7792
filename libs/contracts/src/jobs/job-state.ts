/** Spec 2.9 lifecycle. */
export enum JobState {
  Pending = 'pending',
  Completed = 'completed',
  Failed = 'failed',
}

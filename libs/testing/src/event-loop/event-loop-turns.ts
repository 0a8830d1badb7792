/**
 * Runs `work` and counts the turns the event loop makes meanwhile (a setImmediate that re-arms itself until `work`
 * settles): more than one turn means `work` did not hold the loop, e.g. because it ran on a worker thread.
 */
export async function countEventLoopTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let working = true;
  const spin = (): void => {
    turns++;
    if (working) setImmediate(spin);
  };
  setImmediate(spin);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    working = false;
  }
}

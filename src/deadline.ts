/**
 * `work`'s answer, or a rejection once `ms` have passed, whichever comes first. `late` tells
 * `work` the deadline has passed, so it can leave undone what must not happen after it.
 */
export function within<T>(ms: number, what: string, work: (late: () => boolean) => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let passed = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      passed = true;
      reject(new Error(`${what} did not answer within ${ms} ms`));
    }, ms);
  });
  const working = work(() => passed);
  // Still settled when the deadline won, so its failure is not unhandled.
  working.catch(() => {});
  return Promise.race([working, deadline]).finally(() => clearTimeout(timer));
}

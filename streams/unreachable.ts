/**
 * The end of an exhaustive switch: it compiles only when every case is handled, and throws
 * if a value the types rule out still arrives (data from outside the type system).
 */
export function unreachable(value: never): never {
  throw new Error(`unreachable: ${JSON.stringify(value)}`);
}

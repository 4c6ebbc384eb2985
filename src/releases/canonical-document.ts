import canonicalize from "canonicalize";

/**
 * An RFC 8785 (JCS) document too large to hold: an object whose members are plain values or
 * arrays whose items arrive one at a time. Its text comes in pieces, each item canonicalised
 * on its own (the library does numbers, strings and key order); the members are put in the
 * order JCS sorts keys, by UTF-16 code units, which is how JavaScript compares strings.
 */
export type Member = { key: string } & ({ value: unknown } | { items: AsyncIterable<unknown> });

export async function* canonicalDocument(members: readonly Member[]): AsyncGenerator<string> {
  const sorted = [...members].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let separator = "{";
  for (const member of sorted) {
    yield `${separator}${canonical(member.key)}:`;
    separator = ",";
    if ("value" in member) {
      yield canonical(member.value);
      continue;
    }
    let itemSeparator = "[";
    for await (const item of member.items) {
      yield itemSeparator + canonical(item);
      itemSeparator = ",";
    }
    yield itemSeparator === "[" ? "[]" : "]";
  }
  yield separator === "{" ? "{}" : "}";
}

function canonical(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("a release record has no JSON form");
  return text;
}

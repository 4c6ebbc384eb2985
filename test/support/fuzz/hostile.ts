import fc from "fast-check";
import { keyOf, rekeyed } from "../read-api.js";

/*
 * Input that has broken services before: text PostgreSQL cannot store, numbers past every
 * bound, nesting past the parser's, encodings that are not what they claim, sizes past the
 * limits. Everything here is what a client can put on the wire.
 */

const KB = 1024;

/** Strings with a history: NUL, a lone surrogate, bidi and BOM marks, injections, look-alike digits, empty. */
const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "\u202e\u0644",
  "\ufeff",
  "💥🏏",
  "ﬁ",
  "İı",
  "\u0661\u0662", // Arabic-Indic digits
  "１２", // full-width digits
  "\t\n\r",
  "'; drop table events; --",
  "' OR '1'='1",
  "<script>alert(1)</script>",
  "$" + "{jndi:ldap://x}",
  "{{7*7}}",
  "%00",
  "%s%n",
  "../../etc/passwd",
  "\\",
  '"',
  "null",
  "undefined",
  "true",
  "NaN",
  "-1",
  "0",
  "1e309",
  "0x1F",
  "2024-02-30",
  "2024-13-01",
  "99999-01-01",
  "1.0",
  "1.5",
];

/** Lengths past every field's bound, and past what a row or an index takes. */
const LONG = [1 * KB, 10 * KB, 100 * KB].map((n) => "é".repeat(n));

export const hostileStrings: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 4 },
  // Any UTF-16 code units, lone surrogates included.
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.constantFrom(...LONG), weight: 1 },
);

export const hostileNumbers: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -1, 0.5, -0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e21, 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** `[`×depth … `]`×depth: nesting at, past and far past the bound of bounded-json.ts. */
export const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const DEPTHS = [63, 64, 65, 1000, 10_000];

/** Any JSON value a field might be sent instead of what it takes. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileStrings, weight: 3 },
  { arbitrary: hostileNumbers, weight: 3 },
  { arbitrary: fc.constantFrom(true, false, null, [], {}, [null], { "": "" }), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  // Around the bound wherever it is put; far deeper only as text (`bodyTexts`).
  { arbitrary: fc.constantFrom(62, 63, 64).map((depth) => JSON.parse(nestedArrays(depth))), weight: 1 },
);

/** Property names a strict object must refuse, some of them dangerous to merge. */
const EXTRA_KEYS = ["extra", "role", "competitionIds", "__proto__", "constructor", "", "eventIndex", "id"];

type Path = (string | number)[];
const REMOVE = Symbol("remove");

/** Every node of a JSON value, as paths from the root. */
function pathsOf(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((v, i) => pathsOf(v, [...path, i]))];
  if (value !== null && typeof value === "object")
    return [path, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...path, k]))];
  return [path];
}

/** `value` with the node at `path` replaced by what `change` makes of it (REMOVE: deleted). */
function changed(value: unknown, path: Path, change: (node: unknown) => unknown): unknown {
  if (path.length === 0) return change(value);
  const [head, ...rest] = path as [string | number, ...Path];
  if (Array.isArray(value)) {
    const next = changed(value[head as number], rest, change);
    return next === REMOVE ? value.filter((_, i) => i !== head) : value.map((v, i) => (i === head ? next : v));
  }
  const record = value as Record<string, unknown>;
  const next = changed(record[head], rest, change);
  const { [head]: _, ...others } = record;
  return next === REMOVE ? others : { ...record, [head]: next };
}

type Mutation = (node: unknown) => unknown;

/** One change to one node: a wrong type or a hostile value, gone, an unexpected property, repeated, wrapped. */
const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: hostileJson.map((replacement) => () => replacement), weight: 5 },
  { arbitrary: fc.constant(() => REMOVE), weight: 3 },
  {
    arbitrary: fc.tuple(fc.constantFrom(...EXTRA_KEYS), hostileJson).map(
      ([key, extra]): Mutation =>
        (node) =>
          node !== null && typeof node === "object" && !Array.isArray(node)
            ? // A computed key defines an own property, `__proto__` too, as JSON.parse would.
              { ...node, [key]: extra }
            : node,
    ),
    weight: 2,
  },
  // Past maxItems: 1,001 events, 3 wickets, 12 fielders.
  {
    arbitrary: fc.constantFrom(3, 12, 101, 1001).map(
      (times): Mutation =>
        (node) =>
          Array.isArray(node) && node.length > 0
            ? Array.from({ length: times }, (_, i) => node[i % node.length])
            : node,
    ),
    weight: 1,
  },
  { arbitrary: fc.constant((node: unknown) => [node]), weight: 1 },
);

/** Values of `values` with one to three nodes changed by `mutations`. */
export function mutated(values: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(values, fc.array(fc.tuple(fc.nat(), mutations), { minLength: 1, maxLength: 3 }))
    .map(([value, steps]) =>
      steps.reduce((current, [at, mutation]) => {
        const paths = pathsOf(current);
        const target = paths[at % paths.length] as Path;
        const next = changed(current, target, mutation);
        return next === REMOVE ? undefined : next;
      }, value),
    );
}

/** Bodies at the 1 MiB limit (judged), one byte over it and far over it (413), made once. */
const MiB = 1024 * KB;
const SIZE_EDGES = [
  `${" ".repeat(MiB - 2)}{}`,
  `${" ".repeat(MiB - 1)}{}`,
  JSON.stringify({ fixtureId: "x".repeat(1100 * KB) }),
];

/** Text that is not JSON, or is JSON of the wrong kind, or nests past the bound. */
const NOT_JSON = [
  "",
  " ",
  "null",
  "[]",
  "{}",
  '"text"',
  "1e400",
  "-0",
  '{"a":1,}',
  "{'a':1}",
  "NaN",
  "[1,2",
  "{",
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\x41"}',
  '{"__proto__":{"polluted":true}}',
  ...DEPTHS.flatMap((depth) => [nestedArrays(depth), nestedObjects(depth)]),
];

/** Bytes that are not UTF-8: a stray continuation, an overlong NUL, an encoded surrogate, 0xFF. */
const NOT_UTF8 = [[0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xff, 0xfe], [0xc3]];

/**
 * What a JSON body's text can be: the value as JSON (most of the time), cut short, with a
 * BOM or trailing bytes, with its numbers past what a double holds, not JSON at all, at or
 * over the size limit, or bytes that are not UTF-8.
 */
export function bodyTexts(values: fc.Arbitrary<unknown>): fc.Arbitrary<string | Uint8Array> {
  const json = values.map((v) => JSON.stringify(v) ?? "");
  return fc.oneof(
    { arbitrary: json, weight: 12 },
    { arbitrary: fc.tuple(json, fc.nat()).map(([text, n]) => text.slice(0, n % Math.max(text.length, 1))), weight: 1 },
    { arbitrary: json.map((text) => `\ufeff${text}`), weight: 1 },
    {
      arbitrary: fc.tuple(json, fc.constantFrom(",", "}", "]", "x", "\u0000", "//", "\\")).map(([t, g]) => t + g),
      weight: 1,
    },
    { arbitrary: json.map((text) => text.replace(/(?<=[:[,])\d+(?=[,\]}])/, "1e400")), weight: 1 },
    // The body: valid but for one property nested past the bound.
    {
      arbitrary: fc
        .tuple(json, fc.constantFrom(...DEPTHS))
        .map(([text, depth]) => text.replace(/^\{/, `{"deep":${nestedArrays(depth)}${text === "{}" ? "" : ","}`)),
      weight: 1,
    },
    { arbitrary: fc.constantFrom(...NOT_JSON), weight: 2 },
    { arbitrary: fc.constantFrom(...SIZE_EDGES), weight: 1 },
    {
      arbitrary: fc
        .tuple(json, fc.nat(), fc.constantFrom(...NOT_UTF8))
        .map(([text, n, bad]) => spliced(new TextEncoder().encode(text), n, bad)),
      weight: 1,
    },
  );
}

const spliced = (bytes: Uint8Array, at: number, inserted: number[]) => {
  const cut = at % (bytes.length + 1);
  return Uint8Array.from([...bytes.subarray(0, cut), ...inserted, ...bytes.subarray(cut)]);
};

/**
 * Path segments as they would be on the wire: empty, NUL, dot segments (encoded or not), an
 * encoded slash or backslash, broken or overlong percent-encoding, an encoded lone surrogate,
 * numbers no id has, very long, and any text percent-encoded.
 */
const NASTY_SEGMENTS = [
  "",
  "%00",
  ".",
  "..",
  "%2e",
  "%2E%2e",
  ".%2e",
  "a%2Fb",
  "%2F",
  "%5C",
  "%",
  "%ZZ",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "%FF",
  "%0D%0A",
  "%20",
  "+",
  "*",
  "~",
  ";a=b",
  "0",
  "-1",
  "1.5",
  "1e3",
  "0x10",
  "9007199254740993",
  "99999999999999999999999",
  "a".repeat(5000),
  "%41".repeat(3000),
];

/** Percent-encodes text for a path or query; a lone surrogate, which encodeURIComponent refuses, as its UTF-8 bytes would be. */
export const percentEncoded = (text: string) =>
  [...text]
    .map((ch) => {
      const code = ch.codePointAt(0) as number;
      return code >= 0xd800 && code <= 0xdfff ? utf8Escapes(code) : encodeURIComponent(ch);
    })
    .join("");

const utf8Escapes = (code: number) =>
  [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
    .map((byte) => `%${byte.toString(16).toUpperCase()}`)
    .join("");

export const hostileSegments: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_SEGMENTS), weight: 2 },
  { arbitrary: hostileStrings.map(percentEncoded), weight: 2 },
);

/** Ways to get a real id almost right: the kind of id a client builds by hand from one it saw. */
const NEAR_MISSES: ((id: string) => string)[] = [
  (id) => id.toUpperCase(),
  (id) => id.slice(0, -1),
  (id) => `${id}x`,
  (id) => `${id}${id}`,
  (id) => ` ${id}`,
  (id) => `${id}\u0000`,
  // An almost-UUID: the right shape, a letter no hex digit is.
  (id) => id.replace(/[0-9a-f]$/i, "g"),
  (id) => id.replace(/\d+/, "2147483648"),
  (id) => id.replace(/\d+/, "99999999999999999999"),
  (id) => id.replace(/\d+/, "-1"),
];

/** Real ids, almost: see NEAR_MISSES. */
export const nearMisses = (ids: readonly string[]): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...NEAR_MISSES)).map(([id, miss]) => miss(id));

/** What a cursor's sort key might be made to hold: anything, or text a database reads as a special date. */
const cursorKeyValues = fc.oneof(
  hostileJson,
  fc.constantFrom(
    "0000-01-01",
    "0000-01-01T00:00:00Z",
    "infinity",
    "-infinity",
    "epoch",
    "allballs",
    "2024-02-30",
    "now",
  ),
);

/**
 * Cursors a client could make from real ones: the scope digest kept (it is no secret), one
 * element of the sort key replaced. Only what the server issued may be taken.
 */
export function forgedCursors(cursors: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...cursors), fc.nat(), cursorKeyValues).map(([cursor, at, value]) => {
    const key = keyOf(cursor);
    return rekeyed(
      cursor,
      key.map((element, i) => (i === at % key.length ? value : element)),
    );
  });
}

/**
 * Values a header can carry (RFC 9110 field values: Latin-1, no CR, LF or NUL, no edge
 * whitespace): Headers refuses anything else before a request is sent.
 */
export const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, "?").trim();

export const hostileHeaderValues: fc.Arbitrary<string> = hostileStrings.map(headerSafe);

/**
 * How names are searched: by words, in any order, without regard to case or accents.
 *
 * A named entity's `search_text` holds each of its spellings as its folded words, every word
 * preceded by a space, so "a word starting with x" is the plain substring " x" (a LIKE the
 * trigram index serves, no regular expression). A participant's initials ("MS" of "MS Dhoni",
 * "V" of "V Kohli") are also kept as markers (" ~m ~s"), because Cricsheet names players by
 * initials and surname while users type full names: "virat kohli" finds "V Kohli". A marker
 * starts with its mark, so no word's search (" s") ever finds one.
 */

/** Letters Unicode decomposition leaves whole, as a reader of names expects them folded. */
const LETTERS: Record<string, string> = { ø: "o", ł: "l", đ: "d", ð: "d", ß: "ss", æ: "ae", œ: "oe", þ: "th", ı: "i" };

const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[øłđðßæœþı]/g, (letter) => LETTERS[letter] ?? letter);

/** The folded words of a text: letters and digits, split at anything else. */
export const words = (text: string): string[] =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

const INITIALS = /^\p{Lu}{1,3}$/u;

/** "MS Dhoni" → ["m", "s"]: a short all-capital word before the surname is initials. */
const initialsOf = (name: string): string[] => {
  const parts = name.split(/\s+/).filter(Boolean);
  return parts.slice(0, -1).flatMap((part) => (INITIALS.test(part) ? [...fold(part)] : []));
};

export const INITIAL_MARK = "~";

/** The `search_text` of an entity known by `names`; `initials` for people. */
export function searchText(names: readonly string[], options: { initials?: boolean } = {}): string {
  const lines = names.map((name) =>
    words(name)
      .map((word) => ` ${word}`)
      .join(""),
  );
  if (options.initials) {
    const initials = new Set(names.flatMap(initialsOf));
    if (initials.size > 0) lines.push([...initials].map((letter) => ` ${INITIAL_MARK}${letter}`).join(""));
  }
  return lines.join("\n");
}

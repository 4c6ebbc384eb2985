/**
 * Finding players by what people type: the scorecard name (`V Kohli`), a known-as name
 * (`Virat Kohli`), a surname with or without initials or first names (`Kohli`, `MS Dhoni`,
 * `Mahendra Singh Dhoni`), and near spellings (`Kolhi`). Pure: an index is built once from the
 * names and asked many times.
 *
 * Matching runs in levels and stops at the first that finds anyone, so a closer reading
 * always wins over a looser one: the whole name; given names or initials with a surname; a
 * lone surname or first name; then the same with each longer word allowed one or two typing slips.
 */

/** Lower case, accents, possessives and apostrophes gone: what names and questions are read as. */
export const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’`]s\b/g, "")
    .replace(/['’`]/g, "");

/** `fold`ed, every other non-letter a space, spaces single. */
export const normalise = (text: string) =>
  fold(text)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

export type NamedPerson = { id: string; names: readonly string[] };

/** One way a person is written: given names (or initials) and surname words. */
type Form = { id: string; initials: string; given: string[] | null; surname: string[] };

/**
 * Cricsheet writes most players as initials and surname (`RG Sharma`, `AB de Villiers`) and
 * some with a first name (`Sandeep Sharma`): a leading all-capital word of up to four letters
 * is initials.
 */
function formOf(id: string, name: string): Form | undefined {
  const words = name.trim().split(/\s+/);
  const first = words[0] ?? "";
  const tokens = normalise(name).split(" ").filter(Boolean);
  if (tokens.length === 0) return undefined;
  if (tokens.length === 1) return { id, initials: "", given: [], surname: tokens };
  const initialsWord = /^\p{Lu}{1,4}$/u.test(first) && words.length > 1;
  if (initialsWord) return { id, initials: tokens[0] as string, given: null, surname: tokens.slice(1) };
  return { id, initials: tokens.map((t) => t[0]).join(""), given: tokens.slice(0, 1), surname: tokens.slice(1) };
}

type Same = (typed: string, known: string) => boolean;
const equal: Same = (a, b) => a === b;
const near: Same = (typed, known) => typed === known || withinSlips(typed, known);

/** No name has more words than this (`Mahendra Singh Dhoni`, `Shakib Al Hasan`): longer text is no name. */
export const MAX_NAME_WORDS = 5;

/** A typed first word that is a first name, not initials: "Rahul", not "MS" or "YBK". */
const isFirstName = (word: string) => word.length >= 3 && /[aeiou]/.test(word);

export class NameIndex {
  readonly #exact = new Map<string, Set<string>>();
  readonly #forms: Form[] = [];
  /** The first names each player is known by, where any is known. */
  readonly #firstNames = new Map<string, string[]>();

  constructor(people: Iterable<NamedPerson>) {
    for (const person of people)
      for (const name of person.names) {
        add(this.#exact, normalise(name), person.id);
        const form = formOf(person.id, name);
        if (!form) continue;
        this.#forms.push(form);
        const first = form.given?.[0];
        if (first) this.#firstNames.set(person.id, [...(this.#firstNames.get(person.id) ?? []), first]);
      }
  }

  /** Everyone the text could name at the closest level that finds anyone; none when no one. */
  find(text: string): string[] {
    const typed = normalise(text);
    const words = typed.split(" ").filter(Boolean);
    if (words.length === 0 || words.length > MAX_NAME_WORDS) return [];
    const exact = this.#exact.get(typed);
    if (exact) return [...exact];
    for (const same of [equal, near]) {
      const ids = this.#matching(words, same);
      if (ids.length > 0) return ids;
    }
    return [];
  }

  /**
   * Forms the words match; a player whose first name is known must have that one when a first
   * name is typed: "Rahul Sharma" is not RG Sharma, known as Rohit, though both start with R.
   */
  #matching(words: string[], same: Same): string[] {
    const typedFirst = words.length > 1 && isFirstName(words[0] as string) ? (words[0] as string) : undefined;
    const ids = new Set<string>();
    for (const form of this.#forms) {
      const how = matches(form, words, same);
      if (how === "surname" || (how === "named" && this.#mayBeCalled(form.id, typedFirst))) ids.add(form.id);
    }
    return [...ids];
  }

  /** "Glen" or "Ash" for Glenn or Ashleigh, a slip in a long one; anything when none is known. */
  #mayBeCalled(id: string, typedFirst: string | undefined): boolean {
    const known = this.#firstNames.get(id);
    if (typedFirst === undefined || known === undefined) return true;
    return known.some(
      (first) => first.startsWith(typedFirst) || typedFirst.startsWith(first) || withinSlips(typedFirst, first),
    );
  }
}

/**
 * Whether the typed words name this form: the surname (or its last words, `Villiers` for
 * `de Villiers`) at the end, and before it given names or initials agreeing with the form's
 * (`Virat` or `V` for `V Kohli`, `MS` or `Mahendra Singh` for `MS Dhoni`, `R` for `RG
 * Sharma`); one word alone may also be a first name (`Yuvraj`).
 */
function matches(form: Form, words: string[], same: Same): "surname" | "named" | undefined {
  if (words.length === 1) {
    const word = words[0] as string;
    if (endsWith(form.surname, words, same)) return "surname";
    return form.given?.[0] !== undefined && same(word, form.given[0]) ? "named" : undefined;
  }
  // Every word the surname: `de Villiers`, `Al Hasan`.
  if (
    words.length < form.surname.length + (form.given === null ? 1 : form.given.length) &&
    endsWith(form.surname, words, same)
  )
    return "surname";
  for (let split = Math.max(1, words.length - form.surname.length); split < words.length; split++) {
    if (!endsWith(form.surname, words.slice(split), same)) continue;
    if (givenAgrees(form, words.slice(0, split), same)) return "named";
  }
  return undefined;
}

function givenAgrees(form: Form, given: string[], same: Same): boolean {
  const initials = given.map((word) => word[0]).join("");
  const asInitials = given.length === 1 && (given[0] as string).length <= 4 ? (given[0] as string) : undefined;
  if (form.given === null)
    return form.initials.startsWith(initials) || (asInitials !== undefined && form.initials.startsWith(asInitials));
  if (given.length === 1 && same(given[0] as string, form.given[0] ?? "")) return true;
  return asInitials !== undefined && asInitials.length === 1 && form.initials.startsWith(asInitials);
}

function endsWith(known: string[], typed: string[], same: Same): boolean {
  if (typed.length > known.length) return false;
  const offset = known.length - typed.length;
  return typed.every((word, i) => same(word, known[offset + i] as string));
}

function add(map: Map<string, Set<string>>, key: string, id: string) {
  const ids = map.get(key) ?? new Set();
  ids.add(id);
  map.set(key, ids);
}

/**
 * A typing slip or two: words of 5 to 7 letters within one edit, longer ones within two, an
 * edit being an insertion, a deletion, a substitution or two neighbours swapped (Damerau
 * distance). Four-letter words may only have two neighbours swapped (`Kuar` for Kaur): other
 * slips turn too many ordinary words into a surname ("held" into Head, "rena" into Rana).
 * Shorter words must be typed exactly.
 */
export function withinSlips(typed: string, known: string): boolean {
  if (typed.length < 4 || known.length < 4) return false;
  if (typed.length === 4 || known.length === 4) return swapped(typed, known);
  const allowed = Math.min(typed.length, known.length) >= 8 ? 2 : 1;
  if (Math.abs(typed.length - known.length) > allowed) return false;
  return damerau(typed, known, allowed) <= allowed;
}

/** The same letters but for one pair of neighbours swapped. */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const differ = [...a].flatMap((letter, i) => (letter === b[i] ? [] : [i]));
  const [first, second] = differ as [number, number];
  return differ.length === 2 && second === first + 1 && a[first] === b[second] && a[second] === b[first];
}

/** Optimal-string-alignment distance, stopping once every cell of a row exceeds `bound`. */
function damerau(a: string, b: string, bound: number): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] as number) + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > bound) return best;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * JSON from outside, parsed only when it nests no deeper than MAX_JSON_DEPTH. Whatever walks
 * a parsed value recursively (the storable-text check, zod, canonical JSON) would otherwise
 * overflow the stack on `[[[[…]]]]` 8,000 deep, at a depth that depends on the stack size.
 * RFC 8259 §9 lets a parser limit nesting; the deepest document the API takes (an event's
 * wickets' fielders) nests 6 levels.
 */
export const MAX_JSON_DEPTH = 64;

export class JsonTooDeep extends SyntaxError {
  override readonly name = "JsonTooDeep";
  constructor() {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted`);
  }
}

/** Whether `text` opens more than MAX_JSON_DEPTH arrays or objects at once (one pass, no recursion). */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) depth--;
  }
  return false;
}

/** JSON.parse, refusing a document that nests too deep with a SyntaxError of its own. */
export function parseJson(text: string): unknown {
  if (nestsTooDeep(text)) throw new JsonTooDeep();
  return JSON.parse(text);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

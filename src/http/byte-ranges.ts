/**
 * `Range` and its validators (RFC 9110 §13–14), for a representation whose bytes never change
 * (a release's artefact): one byte range is served, anything else the whole.
 */

/**
 * The one byte range `header` asks for of `length` bytes: `[first, last]` (a suffix longer
 * than the whole is the whole), `"unsatisfiable"` when it starts at or past the end or is an
 * empty suffix, and undefined for what the whole answers: another unit, several ranges, a
 * last position before the first, or text that is no range.
 */
export function byteRange(header: string, length: number): readonly [number, number] | "unsatisfiable" | undefined {
  const match = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i.exec(header);
  if (!match) return undefined;
  const [, from = "", to = ""] = match;
  if (from === "") {
    if (to === "") return undefined;
    const suffix = Number(to);
    return suffix === 0 ? "unsatisfiable" : [Math.max(0, length - suffix), length - 1];
  }
  const first = Number(from);
  if (to !== "" && Number(to) < first) return undefined;
  if (first >= length) return "unsatisfiable";
  return [first, to === "" ? length - 1 : Math.min(Number(to), length - 1)];
}

/** An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the one HTTP-date form a sender may use; undefined for anything else. */
export function httpDate(text: string | undefined): number | undefined {
  const fixdate =
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
  if (text === undefined || !fixdate.test(text)) return undefined;
  const time = Date.parse(text);
  return Number.isFinite(time) ? time : undefined;
}

/**
 * If-Range (§13.1.5) holds when absent, or when it is exactly our strong ETag or exactly our
 * Last-Modified date; a range is served only then.
 */
export const ifRangeHolds = (ifRange: string | undefined, etag: string, lastModified: string): boolean =>
  ifRange === undefined || ifRange === etag || ifRange === lastModified;

import { describe, expect, it } from "vitest";
import { byteRange, httpDate, ifRangeHolds } from "../../src/http/byte-ranges.js";

describe("one byte range of a representation 1000 bytes long", () => {
  it.each([
    ["bytes=0-99", [0, 99]],
    ["bytes=10-10", [10, 10]],
    ["bytes=900-", [900, 999]],
    ["bytes=900-5000", [900, 999]],
    ["bytes=-100", [900, 999]],
    ["bytes=-5000", [0, 999]],
    ["BYTES= 5-9 ", [5, 9]],
    ["bytes=999-999", [999, 999]],
  ] as const)("%s is %j", (header, range) => expect(byteRange(header, 1000)).toEqual(range));

  it.each(["bytes=1000-", "bytes=1000-2000", "bytes=99999999999999999999-", "bytes=-0"])(
    "%s is unsatisfiable",
    (header) => expect(byteRange(header, 1000)).toBe("unsatisfiable"),
  );

  it.each(["bytes=5-2", "bytes=0-1,5-9", "items=0-9", "bytes=-", "bytes=abc", "bytes 0-9", "bytes=1.5-2", ""])(
    "%j is answered with the whole",
    (header) => expect(byteRange(header, 1000)).toBeUndefined(),
  );
});

describe("validators", () => {
  const etag = '"sha256:ab"';
  const lastModified = "Fri, 27 Nov 2026 05:00:00 GMT";

  it("reads IMF-fixdates only", () => {
    expect(httpDate(lastModified)).toBe(Date.UTC(2026, 10, 27, 5));
    for (const text of [
      "2100",
      "Friday, 27-Nov-26 05:00:00 GMT",
      "Fri Nov 27 05:00:00 2026",
      "Fri, 27 Nov 2026 05:00:00 UTC",
      undefined,
    ])
      expect(httpDate(text)).toBeUndefined();
  });

  it("lets If-Range hold for our ETag or exactly our Last-Modified date", () => {
    expect(ifRangeHolds(undefined, etag, lastModified)).toBe(true);
    expect(ifRangeHolds(etag, etag, lastModified)).toBe(true);
    expect(ifRangeHolds(lastModified, etag, lastModified)).toBe(true);
    expect(ifRangeHolds('"sha256:cd"', etag, lastModified)).toBe(false);
    expect(ifRangeHolds(`W/${etag}`, etag, lastModified)).toBe(false);
    expect(ifRangeHolds("Sat, 28 Nov 2026 05:00:00 GMT", etag, lastModified)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { sourceNetwork } from "../../src/limits/source-network.js";

describe("sourceNetwork", () => {
  it("keeps an IPv4 address as it is, also when written in IPv6", () => {
    expect(sourceNetwork("203.0.113.7")).toBe("203.0.113.7");
    expect(sourceNetwork("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(sourceNetwork("::FFFF:198.51.100.9")).toBe("198.51.100.9");
  });

  it("counts an IPv6 address by its /64, however it is written", () => {
    const network = "2001:db8:0:1::/64";
    for (const address of [
      "2001:db8:0:1::1",
      "2001:0db8:0000:0001:ffff:ffff:ffff:ffff",
      "2001:DB8:0:1:a:b:c:d",
      "2001:db8::1:0:0:0:1",
    ])
      expect(sourceNetwork(address), address).toBe(network);
    expect(sourceNetwork("2001:db8:0:2::1")).not.toBe(network);
    expect(sourceNetwork("::1")).toBe("0:0:0:0::/64");
    expect(sourceNetwork("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("leaves what is no address alone", () => {
    for (const value of ["unknown", "not-an-ip", "2001:db8::g", "1.2.3.4.5"]) expect(sourceNetwork(value)).toBe(value);
  });
});

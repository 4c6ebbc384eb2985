// autocannon ships no types; this covers the part of its programmatic API the benchmarks use.
declare module "autocannon" {
  type Options = {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    workers?: number;
    /** Each connection sends these in turn, again and again. */
    requests?: { path: string; method?: string; body?: string; headers?: Record<string, string> }[];
  };
  type Result = {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    "5xx": number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}

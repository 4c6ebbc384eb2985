import { z } from "@hono/zod-openapi";

/**
 * Dates as PostgreSQL holds them. `YYYY-MM-DD` allows year 0000, but PostgreSQL has no year
 * 0 (1 BC is followed by AD 1): `'0000-01-01'::date` is out of range, and a query comparing
 * with it fails. So the first date a request may name is 0001-01-01.
 */
export const FIRST_DATE = "0001-01-01";
export const LAST_DATE = "9999-12-31";

const fromFirstDate = (value: string) => value >= FIRST_DATE;

/** A `YYYY-MM-DD` date (a real one: no 2024-02-30) that PostgreSQL can hold. */
export const storableDate = () =>
  z.iso.date({ abort: true }).refine(fromFirstDate, `Expected a date from ${FIRST_DATE}`);

/** A UTC timestamp as `Date.toISOString()` writes it, that PostgreSQL can hold. */
export const storableTimestamp = () =>
  z.iso.datetime({ abort: true }).refine(fromFirstDate, `Expected a time from ${FIRST_DATE}`);

/** A timestamp in an answer, as `Date.toISOString()` writes it. */
export const timestampField = (description: string) =>
  z.string().openapi({ description, format: "date-time", example: "2026-11-22T10:15:30.000Z" });

import fc from "fast-check";

/** A JSON Schema as the OpenAPI document writes one: the keywords its parameters and bodies use. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
};

/**
 * Values the schema alone cannot know, by the name of the property (or parameter) they go
 * in: the world's real ids, so that generated values reach past "not found".
 */
export type Hints = (name: string) => fc.Arbitrary<unknown> | undefined;

/** Longest generated string or array where the schema allows more: long ones are the mutations' job. */
const SHORT = 24;
const ARRAY_ITEMS = 4;

/**
 * Values that a schema accepts, by its own keywords: enums, formats, patterns, bounds (their
 * edges too: fast-check biases towards them), required and optional properties. A property
 * that `hints` knows takes a hinted value most of the time. `resolve` looks up a `$ref`.
 */
export function schemaValues(
  schema: JsonSchema,
  resolve: (ref: string) => JsonSchema,
  hints: Hints = () => undefined,
  name = "",
): fc.Arbitrary<unknown> {
  if (schema.$ref) return schemaValues(resolve(schema.$ref), resolve, hints, name);
  const own = ownValues(schema, resolve, hints, name);
  // An array's items take the hints of its name (`competitionIds`), the array itself none.
  const hinted = schema.type === "array" ? undefined : hints(name);
  return hinted ? fc.oneof({ arbitrary: hinted, weight: 3 }, { arbitrary: own, weight: 1 }) : own;
}

function ownValues(schema: JsonSchema, resolve: (ref: string) => JsonSchema, hints: Hints, name: string) {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  // A choice of shapes (a query definition: a leaderboard or an aggregate): a value of one of them.
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices) return fc.oneof(...choices.map((choice) => schemaValues(choice, resolve, hints, name)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? "object"];
  return fc.oneof(...types.map((type) => valuesOfType(type, schema, resolve, hints, name)));
}

function valuesOfType(
  type: string,
  schema: JsonSchema,
  resolve: (ref: string) => JsonSchema,
  hints: Hints,
  name: string,
): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: schema.minimum ?? -(2 ** 31), max: schema.maximum ?? 2 ** 31 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case "string":
      return strings(schema);
    case "array": {
      const { minItems = 0, maxItems = ARRAY_ITEMS } = schema;
      const items = schemaValues(schema.items ?? {}, resolve, hints, name);
      return fc.array(items, { minLength: minItems, maxLength: Math.max(minItems, Math.min(maxItems, ARRAY_ITEMS)) });
    }
    default: {
      const properties = schema.properties ?? {};
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, schemaValues(s, resolve, hints, key)])),
        { requiredKeys: (schema.required ?? []).filter((key) => key in properties) },
      );
    }
  }
}

function strings(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === "uuid") return fc.uuid();
  // Any date of four-digit years, 0000 included: the format allows it, a database may not.
  if (schema.format === "date")
    return fc
      .date({ min: new Date("0000-01-01T00:00:00Z"), max: new Date("9999-12-31T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  const { minLength = 0, maxLength = SHORT } = schema;
  const short = Math.max(minLength, Math.min(maxLength, SHORT));
  const some = [
    fc.string({ minLength, maxLength: short }),
    fc.string({ minLength, maxLength: short, unit: "grapheme" }),
  ];
  // The longest the schema allows: the edge its bound is checked at.
  const longest = schema.maxLength === undefined ? [] : [fc.string({ minLength: maxLength, maxLength })];
  return fc.oneof(...some, ...some, ...longest);
}

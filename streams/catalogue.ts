import type { z } from "zod";
import type { StreamCategory } from "./envelope.js";

/**
 * The event catalogue: every event type the system writes, the stream category it lives in
 * and the zod schema its data must satisfy when written and when read back.
 */
export type EventDefinition<Type extends string = string, Schema extends z.ZodType = z.ZodType> = {
  type: Type;
  category: StreamCategory;
  schema: Schema;
  version: number;
  /**
   * Fields of `data` holding personal data of the account whose stream it is: stored sealed
   * under that account's key, and read as null once the key is destroyed (docs/accounts.md,
   * "Erasure"). Their schemas are `erasable`.
   */
  personal?: readonly string[];
  /** Appending this event destroys the key of the stream's account: its personal data is erased. */
  erasesPersonalData?: true;
};

export const defineEvent = <Type extends string, Schema extends z.ZodType>(
  definition: EventDefinition<Type, Schema> & { personal?: readonly (keyof z.output<Schema> & string)[] },
): EventDefinition<Type, Schema> => definition;

/** An event of no known stream: what the store holds before the catalogue has read it. */
export type UntypedEvent = { type: string; data: unknown };

/**
 * The events of some definitions as a discriminated union on `type`, each with its data:
 * `EventOf<(typeof fixtureEvents)[number]>`. Distributes over a union of definitions.
 */
export type EventOf<D extends EventDefinition> =
  D extends EventDefinition<infer Type, infer Schema> ? { type: Type; data: z.output<Schema> } : never;

export class UnknownEventType extends Error {
  override readonly name = "UnknownEventType";
  constructor(readonly eventType: string) {
    super(`event type ${eventType} is not in the catalogue`);
  }
}

/** A catalogue of the given definitions: the whole system's, or one stream's. */
export class EventCatalogue<D extends EventDefinition = EventDefinition> {
  private readonly byType = new Map<string, D>();

  constructor(definitions: readonly D[]) {
    for (const definition of definitions) {
      if (this.byType.has(definition.type)) throw new Error(`event type ${definition.type} defined twice`);
      this.byType.set(definition.type, definition);
    }
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  /** The definition of an event type; throws on a type this catalogue does not hold. */
  definition(type: string): D {
    const definition = this.byType.get(type);
    if (!definition) throw new UnknownEventType(type);
    return definition;
  }

  /** Validates and normalises event data; throws on an unknown type or invalid data. */
  parse(type: string, data: unknown): unknown {
    return this.definition(type).schema.parse(data);
  }

  /**
   * Validates an event and gives it its place in this catalogue's union: the one boundary
   * where untyped data becomes typed. Throws on a type this catalogue does not hold (an
   * event of another stream, too, for a stream's catalogue) or on invalid data.
   */
  event(event: UntypedEvent): EventOf<D> {
    const definition = this.definition(event.type);
    // The one narrowing: zod has just checked `data` against the schema of the definition
    // whose type is `event.type`, which is exactly the pairing EventOf<D> states; TypeScript
    // cannot correlate a looked-up definition with a member of the union by itself.
    return { type: definition.type, data: definition.schema.parse(event.data) } as EventOf<D>;
  }

  definitions(): D[] {
    return [...this.byType.values()];
  }
}

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
};

export const defineEvent = <Type extends string, Schema extends z.ZodType>(
  definition: EventDefinition<Type, Schema>,
): EventDefinition<Type, Schema> => definition;

export class UnknownEventType extends Error {
  override readonly name = "UnknownEventType";
  constructor(readonly eventType: string) {
    super(`event type ${eventType} is not in the catalogue`);
  }
}

export class EventCatalogue {
  private readonly byType = new Map<string, EventDefinition>();

  constructor(definitions: readonly EventDefinition[]) {
    for (const definition of definitions) {
      if (this.byType.has(definition.type)) throw new Error(`event type ${definition.type} defined twice`);
      this.byType.set(definition.type, definition);
    }
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  /** Validates and normalises event data; throws on an unknown type or invalid data. */
  parse(type: string, data: unknown): unknown {
    const definition = this.byType.get(type);
    if (!definition) throw new UnknownEventType(type);
    return definition.schema.parse(data);
  }

  definitions(): EventDefinition[] {
    return [...this.byType.values()];
  }
}

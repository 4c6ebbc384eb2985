/**
 * How a package's reference finds what it names (docs/batches.md, "References"). A
 * `sourceId` is `<namespace>:<entityType>:<value>` and matches only within its namespace and
 * entity type: `app:<type>:<id>` names a canonical id, any other namespace a source id the
 * entity was registered with. A name matches what people call the entity, without regard to
 * case or accents, and only among the candidates its scope allows.
 */

export type Reference = { sourceId?: string | undefined; context?: { name?: string | undefined } | undefined };

/** An entity a reference may name: its canonical id, its names and the source ids it was registered with. */
export type Candidate = { id: string; name: string; names: readonly string[]; sourceIds: readonly string[] };

export const APP_NAMESPACE = "app";

/** `José  Buttler` and `jose buttler` are one name. */
export const nameKey = (name: string) =>
  name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

const parts = (sourceId: string) => {
  const [namespace = "", entityType = "", ...value] = sourceId.split(":");
  return { namespace, entityType, value: value.join(":") };
};

/** The candidates a reference matches: by its sourceId when it has one, else by its name. */
export function candidatesFor(reference: Reference, candidates: readonly Candidate[]): Candidate[] {
  if (reference.sourceId !== undefined) {
    const { namespace, entityType, value } = parts(reference.sourceId);
    if (namespace === APP_NAMESPACE) return candidates.filter((c) => c.id === value);
    return candidates.filter((c) =>
      c.sourceIds.some((s) => {
        const other = parts(s);
        return other.namespace === namespace && other.entityType === entityType && other.value === value;
      }),
    );
  }
  const wanted = reference.context?.name;
  if (wanted === undefined) return [];
  const key = nameKey(wanted);
  return candidates.filter((c) => [c.name, ...c.names].some((n) => nameKey(n) === key));
}

/**
 * The candidates the reference at `path` names: the one the batch's mapping chose for it,
 * when it is among them (a mapping never reaches outside the reference's scope), else those
 * `candidatesFor` finds.
 */
export function candidatesAt(
  mappings: ReadonlyMap<string, string>,
  path: string,
  reference: Reference,
  candidates: readonly Candidate[],
): Candidate[] {
  const chosen = mappings.get(path);
  return chosen === undefined ? candidatesFor(reference, candidates) : candidates.filter((c) => c.id === chosen);
}

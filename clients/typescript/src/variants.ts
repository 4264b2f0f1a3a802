/**
 * Each variant's facts as the server publishes them (ListRulesets, `RulesetPreset.variant`),
 * looked up by any name the server accepts, so a client reads a variant's direction, contact,
 * bar, checkers and home instead of keeping a table of names of its own.
 */
import type { RulesetPreset, VariantFacts } from "./gen/tavla/v1/match_pb.js";

/** `name` as the server compares variant and preset names: case, spaces and hyphens ignored ("Long-Nardy" is "long_nardy"). */
export function variantKey(name: string): string {
  return name.toLowerCase().replace(/-/g, " ").trim().split(/\s+/).join("_");
}

/** Whether both sides of a variant move the same way round the board (`direction` "same": white's point p is black's ((p + 11) mod 24) + 1). */
export function sameDirection(facts: VariantFacts): boolean {
  return facts.direction === "same";
}

/** The facts of every variant one ListRulesets answer lists, by the variant's name and aliases and by its presets' names and aliases. */
export class VariantTable {
  private readonly byName = new Map<string, VariantFacts>();

  /** `presets`: the ListRulesets answer's, kept as listed. */
  constructor(readonly presets: readonly RulesetPreset[]) {
    const add = (name: string, facts: VariantFacts) => {
      if (!this.byName.has(variantKey(name))) this.byName.set(variantKey(name), facts);
    };
    const listed = presets.flatMap((p) => (p.variant ? [p.variant] : []));
    for (const f of listed) for (const name of [f.name, ...f.aliases]) add(name, f);
    // a preset's names after every variant's: a variant's name wins
    for (const p of presets) if (p.variant) for (const name of [p.name, ...p.aliases]) add(name, p.variant);
  }

  /** The facts of the variant called `name` (a `Ruleset.variant` or `Ruleset.preset` value, or an alias of either); throws an Error naming the variants listed when there is none. */
  facts(name: string): VariantFacts {
    const found = this.byName.get(variantKey(name));
    if (!found) throw new Error(`unknown variant ${JSON.stringify(name)}: ListRulesets lists ${this.names().join(", ")}`);
    return found;
  }

  /** Whether the table has a variant or preset called `name`. */
  has(name: string): boolean {
    return this.byName.has(variantKey(name));
  }

  /** The canonical names of the variants listed, in the server's order. */
  names(): string[] {
    return [...new Set([...this.byName.values()].map((f) => f.name))];
  }
}

package dev.tavla.client;

import dev.tavla.v1.RulesetPreset;
import dev.tavla.v1.VariantFacts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each variant's facts as the server publishes them (ListRulesets, {@code RulesetPreset.variant}:
 * direction, contact, bar, checkers, home, options), by the variant's name and aliases and by its
 * presets' names and aliases, so a client reads them instead of keeping a table of names of its
 * own. Immutable.
 */
public final class VariantTable {
  private final Map<String, VariantFacts> byName = new LinkedHashMap<>();
  private final List<RulesetPreset> presets;

  /** The table of the presets of a ListRulesets answer. */
  public VariantTable(List<RulesetPreset> presets) {
    this.presets = Collections.unmodifiableList(new ArrayList<>(presets));
    for (RulesetPreset p : presets) {
      VariantFacts f = p.getVariant();
      byName.putIfAbsent(key(f.getName()), f);
      for (String alias : f.getAliasesList()) byName.putIfAbsent(key(alias), f);
    }
    // a preset's names after every variant's: a variant's name wins
    for (RulesetPreset p : presets) {
      byName.putIfAbsent(key(p.getName()), p.getVariant());
      for (String alias : p.getAliasesList()) byName.putIfAbsent(key(alias), p.getVariant());
    }
  }

  /**
   * {@code name} as the server compares variant and preset names: case, spaces and hyphens
   * ignored ("Long-Nardy" is "long_nardy").
   */
  public static String key(String name) {
    return String.join("_", name.toLowerCase(Locale.ROOT).replace('-', ' ').trim().split("\\s+"));
  }

  /**
   * The facts of the variant called {@code name} (a {@code Ruleset.variant} or {@code
   * Ruleset.preset} value, or an alias of either).
   *
   * @throws IllegalArgumentException the server lists no variant or preset of that name (the
   *     message names the ones it lists)
   */
  public VariantFacts facts(String name) {
    VariantFacts found = byName.get(key(name));
    if (found == null) {
      throw new IllegalArgumentException(
          "unknown variant \"" + name + "\": ListRulesets lists " + String.join(", ", names()));
    }
    return found;
  }

  /** The canonical names of the variants listed, in the server's order. */
  public List<String> names() {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    for (VariantFacts f : byName.values()) names.add(f.getName());
    return new ArrayList<>(names);
  }

  /** The presets of the ListRulesets answer, as listed. */
  public List<RulesetPreset> presets() {
    return presets;
  }

  /**
   * Whether both sides of a variant move the same way round the board (its direction is "same":
   * white's point p is black's ((p + 11) mod 24) + 1).
   */
  public static boolean sameDirection(VariantFacts facts) {
    return "same".equals(facts.getDirection());
  }
}

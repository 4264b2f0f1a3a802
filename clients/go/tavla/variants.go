package tavla

import (
	"context"
	"fmt"
	"strings"

	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

// VariantKey is name as the server compares variant and preset names: case, spaces and hyphens
// ignored ("Long-Nardy" and "long nardy" are "long_nardy").
func VariantKey(name string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.ToLower(name), "-", " ")), "_")
}

// VariantTable is the VariantFacts of every variant one ListRulesets answer lists (direction,
// contact, bar, checkers, home, options: proto VariantFacts), by the variant's name and aliases
// and by its presets' names and aliases. It is read-only once built.
type VariantTable struct {
	byName map[string]*tavlav1.VariantFacts
	names  []string
}

// NewVariantTable is the table of the presets of a ListRulesets answer.
func NewVariantTable(presets []*tavlav1.RulesetPreset) *VariantTable {
	t := &VariantTable{byName: map[string]*tavlav1.VariantFacts{}}
	add := func(name string, f *tavlav1.VariantFacts) {
		if _, ok := t.byName[VariantKey(name)]; !ok {
			t.byName[VariantKey(name)] = f
		}
	}
	for _, p := range presets {
		f := p.GetVariant()
		if _, ok := t.byName[VariantKey(f.GetName())]; !ok {
			t.names = append(t.names, f.GetName())
		}
		for _, name := range append([]string{f.GetName()}, f.GetAliases()...) {
			add(name, f)
		}
	}
	for _, p := range presets { // a preset's names after every variant's: a variant's name wins
		for _, name := range append([]string{p.GetName()}, p.GetAliases()...) {
			add(name, p.GetVariant())
		}
	}
	return t
}

// Facts is the facts of the variant called name (a Ruleset.Variant or Ruleset.Preset value, or an
// alias of either); an error names the variants listed when the server lists no such name.
func (t *VariantTable) Facts(name string) (*tavlav1.VariantFacts, error) {
	if f, ok := t.byName[VariantKey(name)]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown variant %q: ListRulesets lists %s", name, strings.Join(t.names, ", "))
}

// Names is the canonical names of the variants listed, in the server's order.
func (t *VariantTable) Names() []string { return append([]string(nil), t.names...) }

// SameDirection is whether both sides of a variant move the same way round the board (its
// Direction is "same": white's point p is black's ((p + 11) mod 24) + 1).
func SameDirection(f *tavlav1.VariantFacts) bool { return f.GetDirection() == "same" }

// Variants is every variant's facts, from one ListRulesets call made the first time and kept for
// the client's life (a failed call is not kept: the next one asks again).
func (c *Client) Variants(ctx context.Context) (*VariantTable, error) {
	c.variantsMu.Lock()
	defer c.variantsMu.Unlock()
	if c.variants != nil {
		return c.variants, nil
	}
	r, err := c.ListRulesets(ctx)
	if err != nil {
		return nil, err
	}
	c.variants = NewVariantTable(r.GetPresets())
	return c.variants, nil
}

// VariantFacts is the facts of the variant or preset called name (Variants, VariantTable.Facts).
func (c *Client) VariantFacts(ctx context.Context, name string) (*tavlav1.VariantFacts, error) {
	t, err := c.Variants(ctx)
	if err != nil {
		return nil, err
	}
	return t.Facts(name)
}

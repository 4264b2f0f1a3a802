package tavla_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/tavla-engine/tavla-engine/clients/go/tavla"
	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

// otherPoint is point p of one side's numbering in the other's (docs/variants.md).
func otherPoint(p uint32, same bool) uint32 {
	if same {
		return (p+11)%24 + 1
	}
	return 25 - p
}

// TestVariantFacts reads plakoto's and gul bara's facts from the live server by any of their
// names, and an unknown name is an error naming it.
func TestVariantFacts(t *testing.T) {
	ctx := context.Background()
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	plakoto, err := c.VariantFacts(ctx, "Mahbusa")
	if err != nil || plakoto.GetName() != "plakoto" || plakoto.GetDirection() != "opposite" || plakoto.GetContact() != "pin" ||
		plakoto.GetBar() || plakoto.GetCheckers() != 15 || plakoto.GetHome() != 6 {
		t.Errorf("plakoto: %v (%v)", plakoto, err)
	}
	gulBara, err := c.VariantFacts(ctx, "gul-bara")
	if err != nil || gulBara.GetName() != "gul_bara" || !tavla.SameDirection(gulBara) || !gulBara.GetDoublesCascade() {
		t.Errorf("gul bara: %v (%v)", gulBara, err)
	}
	if f, err := c.VariantFacts(ctx, "international"); err != nil || f.GetName() != "backgammon" || tavla.SameDirection(f) {
		t.Errorf("international: %v (%v)", f, err)
	}
	table, err := c.Variants(ctx)
	if again, _ := c.Variants(ctx); err != nil || again != table {
		t.Errorf("the table is not kept: %p %p (%v)", table, again, err)
	}
	if _, err := c.VariantFacts(ctx, "chess"); err == nil || !strings.Contains(err.Error(), `unknown variant "chess"`) ||
		!strings.Contains(err.Error(), "plakoto") {
		t.Errorf("chess: %v", err)
	}
}

// TestVariantDirection uses each variant's direction: every checker starts on its side's 24
// point, and 6-6 takes white's head to its 12 point unless black's head, black's 24 read in
// white's numbering by the direction, stands there.
func TestVariantDirection(t *testing.T) {
	ctx := context.Background()
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, preset := range []string{"plakoto", "fevga", "gul_bara", "long_nardy"} {
		facts, err := c.VariantFacts(ctx, preset)
		if err != nil {
			t.Fatal(err)
		}
		c.Ruleset = &tavlav1.Ruleset{Preset: preset}
		start, err := c.GetInitialPosition(ctx, tavlav1.Side_SIDE_WHITE)
		if err != nil {
			t.Fatal(err)
		}
		if start.GetBoard().GetWhite().GetPoints()[23] != facts.GetCheckers() || start.GetBoard().GetBlack().GetPoints()[23] != facts.GetCheckers() {
			t.Errorf("%s: start %v, %d checkers", preset, start.GetBoard(), facts.GetCheckers())
		}
		moves, err := c.ListLegalMoves(ctx, start, 6, 6)
		if err != nil {
			t.Fatal(err)
		}
		reached := false
		for _, m := range moves {
			for _, cm := range m.GetCheckerMoves() {
				reached = reached || cm.GetToPoint() == 12
			}
		}
		if blocked := otherPoint(24, tavla.SameDirection(facts)) == 12; reached == blocked {
			t.Errorf("%s: 12 reached %v, black's head there %v", preset, reached, blocked)
		}
	}
}

// TestRollDiceSendsTheRuleset: the position is read under the client's Ruleset, so 15 checkers a
// side is no hypergammon position.
func TestRollDiceSendsTheRuleset(t *testing.T) {
	ctx := context.Background()
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if r, err := c.RollDice(ctx, tavla.ByID(tavla.StartPositionID)); err != nil || len(r.GetDice()) != 2 {
		t.Fatalf("backgammon: %v (%v)", r, err)
	}
	c.Ruleset = &tavlav1.Ruleset{Preset: "hypergammon"}
	_, err = c.RollDice(ctx, tavla.ByID(tavla.StartPositionID))
	if e, ok := tavla.AsError(err); !ok || e.Code != codes.InvalidArgument || !strings.Contains(e.Message, "position") {
		t.Errorf("hypergammon: %v", err)
	}
	if r, err := c.RollDice(ctx, nil); err != nil || len(r.GetDice()) != 2 {
		t.Errorf("no position: %v (%v)", r, err)
	}
}

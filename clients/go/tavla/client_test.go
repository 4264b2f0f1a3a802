package tavla_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/tavla-engine/tavla-engine/clients/go/tavla"
	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

func TestServiceConfigIsTheSharedOne(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "clients", "service_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var shared, ours any
	if err := json.Unmarshal(data, &shared); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(tavla.ServiceConfig), &ours); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(shared, ours) {
		t.Errorf("tavla.ServiceConfig differs from clients/service_config.json")
	}
}

// flaky fails GetInitialPosition with code the first failures times, then answers.
type flaky struct {
	tavlav1.UnimplementedRulesServiceServer
	code     codes.Code
	failures int32
	calls    atomic.Int32
}

func (f *flaky) GetInitialPosition(context.Context, *tavlav1.GetInitialPositionRequest) (*tavlav1.GetInitialPositionResponse, error) {
	if f.calls.Add(1) <= f.failures {
		return nil, status.Error(f.code, "failing on purpose")
	}
	return &tavlav1.GetInitialPositionResponse{Position: tavla.ByID(tavla.StartPositionID)}, nil
}

func serveFlaky(t *testing.T, f *flaky) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	tavlav1.RegisterRulesServiceServer(s, f)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	return lis.Addr().String()
}

func TestRetries(t *testing.T) {
	for _, tc := range []struct {
		code      codes.Code
		failures  int32
		wantCalls int32
		wantCode  codes.Code
	}{
		{codes.Unavailable, 2, 3, codes.OK},
		{codes.Unavailable, 10, 5, codes.Unavailable},
		{codes.Canceled, 2, 3, codes.OK},
		{codes.InvalidArgument, 1, 1, codes.InvalidArgument},
		{codes.Internal, 1, 1, codes.Internal},
	} {
		t.Run(tavla.CodeName(tc.code), func(t *testing.T) {
			f := &flaky{code: tc.code, failures: tc.failures}
			c, err := tavla.NewClient(serveFlaky(t, f))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err = c.GetInitialPosition(ctx, tavlav1.Side_SIDE_WHITE)
			if got := status.Code(err); got != tc.wantCode {
				t.Errorf("code %v, want %v", got, tc.wantCode)
			}
			if got := f.calls.Load(); got != tc.wantCalls {
				t.Errorf("%d calls, want %d", got, tc.wantCalls)
			}
		})
	}
}

func TestHelpersAgainstTheServer(t *testing.T) {
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	start, err := c.GetInitialPosition(ctx, tavlav1.Side_SIDE_WHITE)
	if err != nil || start.GetIds().GetPositionId() != tavla.StartPositionID {
		t.Fatalf("start %v, %v", start, err)
	}
	moves, err := c.ListLegalMoves(ctx, start, 5, 1)
	if err != nil || len(moves) != 8 {
		t.Fatalf("%d moves, %v", len(moves), err)
	}
	after, err := c.ApplyMove(ctx, tavla.ByID(tavla.StartPositionID), 5, 1, tavla.Notation("24/23 13/8"))
	if err != nil || after.GetMove().GetResult().GetIds().GetPositionId() != "4PPgASjgc/ABMA" {
		t.Fatalf("after %v, %v", after, err)
	}
	score, err := c.ScoreGame(ctx, start)
	if err != nil || score.GetOutcome() != nil {
		t.Fatalf("score %v, %v", score, err)
	}
	_, err = c.ApplyMove(ctx, start, 5, 1, tavla.Notation("13/8"))
	e, ok := tavla.AsError(err)
	if !ok || e.Code != codes.InvalidArgument || e.Reason != "MUST_USE_BOTH_DICE" || e.Domain != "tavla.v1" ||
		e.Metadata["move"] != "13/8" || e.Metadata["dice"] != "5-1" {
		t.Fatalf("error %+v", e)
	}
	if e.Error() != "INVALID_ARGUMENT [MUST_USE_BOTH_DICE]: "+e.Message {
		t.Errorf("Error() = %q", e.Error())
	}
	_, err = c.ListLegalMoves(ctx, start, 7, 1)
	if e, ok := tavla.AsError(err); !ok || len(e.Fields) != 1 || e.Fields[0] != "dice" || e.Reason != "" {
		t.Fatalf("error %+v", e)
	}
	c.Ruleset = &tavlav1.Ruleset{Preset: "turkish"}
	score, err = c.ScoreGame(ctx, tavla.ByID("APD/A0AAAAAAAA")) // katmerli mars pays 2 in the turkish preset
	if err != nil || score.GetOutcome().GetPoints() != 2 {
		t.Fatalf("turkish score %v, %v", score, err)
	}
}

func TestMatchHelpersAndTurkishMessages(t *testing.T) {
	c, err := tavla.NewClient(liveTarget, tavla.WithLocale("tr"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	match := &tavlav1.MatchState{Length: 3}
	start, err := c.StartGame(ctx, match)
	if err != nil || len(start.GetDice()) != 2 || start.GetDice()[0] < start.GetDice()[1] {
		t.Fatalf("start %v, %v", start, err)
	}
	steps, err := c.ListLegalSteps(ctx, start.GetPosition(), start.GetDice(), nil, match)
	if err != nil || len(steps.GetNextSteps()) == 0 {
		t.Fatalf("steps %v, %v", steps, err)
	}
	roll, err := c.RollDice(ctx, nil)
	if err != nil || roll.GetDice()[0] < roll.GetDice()[1] {
		t.Fatalf("roll %v, %v", roll, err)
	}
	side := start.GetStarter()
	options, err := c.ListCubeActions(ctx, match, side)
	if err != nil || len(options.GetActions()) != 1 || options.GetActions()[0] != tavlav1.CubeAction_CUBE_ACTION_DOUBLE {
		t.Fatalf("cube options %v, %v", options, err)
	}
	doubled, err := c.ApplyCubeAction(ctx, match, side, tavlav1.CubeAction_CUBE_ACTION_DOUBLE)
	if err != nil {
		t.Fatal(err)
	}
	other := tavlav1.Side_SIDE_WHITE + tavlav1.Side_SIDE_BLACK - side
	dropped, err := c.ApplyCubeAction(ctx, doubled.GetMatch(), other, tavlav1.CubeAction_CUBE_ACTION_DROP)
	if err != nil || dropped.GetOutcome() == nil {
		t.Fatalf("drop %v, %v", dropped, err)
	}
	update, err := c.UpdateMatch(ctx, dropped.GetMatch(), dropped.GetOutcome())
	if err != nil || update.GetPointsScored() != 1 {
		t.Fatalf("update %v, %v", update, err)
	}
	_, err = c.ApplyMove(ctx, tavla.ByID(tavla.StartPositionID), 5, 1, tavla.Notation("13/8"))
	e, ok := tavla.AsError(err)
	if !ok || e.Locale != "tr" || e.Localized != "Penç yek (5-1) attın; iki zar da oynanabiliyor, ikisini de oynamak zorundasın." {
		t.Fatalf("error %+v", e)
	}
}

func TestPositionIDs(t *testing.T) {
	p, err := tavla.PositionFromID(tavla.StartPositionID, tavlav1.Side_SIDE_UNSPECIFIED)
	if err != nil {
		t.Fatal(err)
	}
	want := [24]uint32{5: 5, 7: 3, 12: 5, 23: 2}
	for _, side := range []*tavlav1.SideCheckers{p.GetBoard().GetWhite(), p.GetBoard().GetBlack()} {
		if !reflect.DeepEqual([24]uint32(side.GetPoints()), want) || side.GetPipCount() != 167 {
			t.Errorf("start side %v", side)
		}
	}
	if p.GetOnRoll() != tavlav1.Side_SIDE_WHITE {
		t.Errorf("on roll %v", p.GetOnRoll())
	}
	id, err := tavla.PositionID(&tavlav1.Position{OnRoll: tavlav1.Side_SIDE_BLACK, Checkers: &tavlav1.Position_Board{Board: p.GetBoard()}})
	if err != nil || id != tavla.StartPositionID {
		t.Errorf("encode start: %q, %v", id, err)
	}
	for _, bad := range []string{"4HPwATDgc", "not-an-id!!!!!", "//////////////"} {
		if _, _, err := tavla.DecodePositionID(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// TestHypergammonPositionIDs: hypergammon's 3 checkers a side (variants-rules.md "Hypergammon")
// round-trip through PositionIDs{Checkers: 3}; its start is gnubg's ID AACgAgAAKgAAAA, and the
// live server's start decodes to the same board.
func TestHypergammonPositionIDs(t *testing.T) {
	const start = "AACgAgAAKgAAAA"
	if tavla.IDsFor(nil) != tavla.StandardIDs || tavla.IDsFor(&tavlav1.VariantFacts{Checkers: 3}) != tavla.HypergammonIDs {
		t.Errorf("IDsFor: nil %v, 3 a side %v", tavla.IDsFor(nil), tavla.IDsFor(&tavlav1.VariantFacts{Checkers: 3}))
	}
	mover, other, err := tavla.HypergammonIDs.Decode(start)
	want := tavla.Checkers{Points: [24]uint32{21: 1, 22: 1, 23: 1}}
	if err != nil || mover != want || other != want || mover.PipCount() != 69 {
		t.Fatalf("decode %s: %+v %+v %v", start, mover, other, err)
	}
	if std, _, _ := tavla.DecodePositionID(start); std.BorneOff != 12 {
		t.Errorf("read for 15 a side, 12 are borne off: %+v", std)
	}
	// One left on point 1, two borne off, against black's 4, 5 and 6 points.
	bornOff := tavla.Checkers{Points: [24]uint32{0: 1}, BorneOff: 2}
	black := tavla.Checkers{Points: [24]uint32{3: 1, 4: 1, 5: 1}}
	id, err := tavla.HypergammonIDs.Encode(black, bornOff)
	if err != nil || id != "AQAAoAIAAAAAAA" {
		t.Fatalf("encode: %q %v", id, err)
	}
	if m, o, err := tavla.HypergammonIDs.Decode(id); err != nil || m != black || o != bornOff {
		t.Errorf("round trip %s: %+v %+v %v", id, m, o, err)
	}
	for name, bad := range map[string][2]tavla.Checkers{
		"4 on the board":        {{Points: [24]uint32{0: 4}}, black},
		"1 on the board, 3 off": {{Points: [24]uint32{0: 1}, BorneOff: 3}, black},
	} {
		if _, err := tavla.HypergammonIDs.Encode(bad[0], bad[1]); err == nil {
			t.Errorf("%s: encoded", name)
		}
	}
	if _, _, err := tavla.HypergammonIDs.Decode(tavla.StartPositionID); err == nil {
		t.Error("backgammon's start decoded with 3 a side")
	}
	if _, _, err := (tavla.PositionIDs{Checkers: 16}).Decode(start); err == nil {
		t.Error("16 a side accepted")
	}

	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Ruleset = &tavlav1.Ruleset{Preset: "hypergammon"}
	live, err := c.GetInitialPosition(context.Background(), tavlav1.Side_SIDE_UNSPECIFIED)
	if err != nil {
		t.Fatal(err)
	}
	facts, err := c.VariantFacts(context.Background(), c.Ruleset.GetPreset())
	if err != nil || facts.GetCheckers() != tavla.HypergammonCheckers {
		t.Fatalf("hypergammon's facts %v (%v)", facts, err)
	}
	decoded, err := tavla.IDsFor(facts).PositionFromID(live.GetIds().GetPositionId(), live.GetOnRoll())
	if err != nil || live.GetIds().GetPositionId() != start ||
		!proto.Equal(decoded.GetBoard(), live.GetBoard()) {
		t.Errorf("server's start %v, decoded %v (%v)", live, decoded, err)
	}
	again, err := tavla.HypergammonIDs.PositionID(&tavlav1.Position{OnRoll: live.GetOnRoll(), Checkers: &tavlav1.Position_Board{Board: live.GetBoard()}})
	if err != nil || again != start {
		t.Errorf("server's board encodes to %q (%v)", again, err)
	}
}

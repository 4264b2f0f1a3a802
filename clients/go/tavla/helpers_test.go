package tavla_test

// Every RPC has a helper (tavla.Helpers), and the helpers work against the live server: the
// referee API plays a short match, the rest answer with real values.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tavla-engine/tavla-engine/clients/go/tavla"
	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

// messageName is the full proto name of t when it is a *Message type, else "".
func messageName(t reflect.Type) protoreflect.FullName {
	if t.Kind() != reflect.Pointer {
		return ""
	}
	if m, ok := reflect.New(t.Elem()).Interface().(proto.Message); ok {
		return m.ProtoReflect().Descriptor().FullName()
	}
	return ""
}

func TestEveryRPCHasAHelper(t *testing.T) {
	var methods []protoreflect.MethodDescriptor
	for _, file := range []protoreflect.FileDescriptor{tavlav1.File_tavla_v1_rules_service_proto,
		tavlav1.File_tavla_v1_match_service_proto, tavlav1.File_tavla_v1_referee_service_proto,
		tavlav1.File_tavla_v1_records_service_proto, tavlav1.File_tavla_v1_analysis_service_proto} {
		for i := 0; i < file.Services().Len(); i++ {
			for j := 0; j < file.Services().Get(i).Methods().Len(); j++ {
				methods = append(methods, file.Services().Get(i).Methods().Get(j))
			}
		}
	}
	client := reflect.TypeOf(&tavla.Client{})
	if len(methods) != len(tavla.Helpers) {
		t.Errorf("%d RPCs, %d helpers", len(methods), len(tavla.Helpers))
	}
	// The helpers that answer with something other than the RPC's response.
	others := map[string]string{
		"GetInitialPosition": "*tavlav1.Position", "ListLegalMoves": "[]*tavlav1.Move", "ValidateMatch": "error",
		"StreamAnalyzeMatch": "*tavlav1.AnalyzeMatchResponse", // the result; progress goes to a callback
	}
	for _, rpc := range methods {
		name := string(rpc.Name())
		helper, ok := tavla.Helpers[name]
		if !ok {
			t.Errorf("%s has no helper in tavla.Helpers", name)
			continue
		}
		m, ok := client.MethodByName(helper)
		if !ok || helper != name {
			t.Errorf("%s: no helper method %s on *tavla.Client (named as the RPC)", name, helper)
			continue
		}
		ft := m.Type // receiver first
		if ft.NumIn() < 2 || ft.In(1) != reflect.TypeOf((*context.Context)(nil)).Elem() {
			t.Errorf("%s: %s does not take a context first", name, helper)
		}
		if want, ok := others[name]; ok {
			if got := ft.Out(0).String(); got != want {
				t.Errorf("%s: %s returns %s, want %s", name, helper, got, want)
			}
			continue
		}
		if ft.NumOut() != 2 || messageName(ft.Out(0)) != rpc.Output().FullName() {
			t.Errorf("%s: %s returns %v, want (*%s, error)", name, helper, ft.Out(0), rpc.Output().FullName())
		}
	}
	// Validate hands each verdict, a ValidateMatchResponse, to its callback.
	validate, _ := client.MethodByName(tavla.Helpers["ValidateMatch"])
	each := validate.Type.In(validate.Type.NumIn() - 1)
	if each.Kind() != reflect.Func || messageName(each.In(0)) != tavlav1.File_tavla_v1_records_service_proto.Services().ByName("RecordsService").Methods().ByName("ValidateMatch").Output().FullName() {
		t.Errorf("Validate's callback is %v", each)
	}
}

func other(side tavlav1.Side) tavlav1.Side {
	return tavlav1.Side_SIDE_WHITE + tavlav1.Side_SIDE_BLACK - side
}

// pick is the action a simple player takes: finish a move, else step, else roll; never double,
// resign or undo, so the game only goes forward.
func pick(actions []*tavlav1.GameAction) *tavlav1.GameAction {
	for _, kind := range []tavlav1.ActionKind{
		tavlav1.ActionKind_ACTION_KIND_CONFIRM_MOVE, tavlav1.ActionKind_ACTION_KIND_STEP,
		tavlav1.ActionKind_ACTION_KIND_ROLL, tavlav1.ActionKind_ACTION_KIND_START_GAME,
	} {
		for _, a := range actions {
			if a.GetKind() == kind {
				return a
			}
		}
	}
	return nil
}

// TestRefereeMatch plays a 1-point match through NewMatch and Act, one call per action,
// each answer giving the next actions (the test server takes the dice of the start by
// WithTestDice): four moves each way, then a resignation the other side accepts, which ends the
// match (docs/game-state.md; R3 start, R22 resignation). The record kept from the answers'
// events has every entry once.
func TestRefereeMatch(t *testing.T) {
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	opened, err := c.NewMatch(ctx, 1, nil, "go-client-test")
	if err != nil {
		t.Fatal(err)
	}
	if opened.GetView().GetPhase() != tavlav1.GamePhase_GAME_PHASE_START || opened.GetView().GetMatch().GetLength() != 1 ||
		opened.GetView().GetMatchId() != "go-client-test" {
		t.Fatalf("opened %v", opened.GetView())
	}
	// The starting roll-off with dice 5 and 1 (state mode off): white's 5 beats black's 1.
	if len(opened.GetActions()) != 1 || opened.GetActions()[0].GetKind() != tavlav1.ActionKind_ACTION_KIND_START_GAME {
		t.Fatalf("opened with actions %v", opened.GetActions())
	}
	started, err := c.Act(tavla.WithTestDice(ctx, 5, 1), opened.GetState(), opened.GetActions()[0])
	if err != nil {
		t.Fatal(err)
	}
	if g := started.GetView(); g.GetPhase() != tavlav1.GamePhase_GAME_PHASE_MOVING || g.GetSideToAct() != tavlav1.Side_SIDE_WHITE ||
		!reflect.DeepEqual(g.GetDice(), []uint32{5, 1}) {
		t.Fatalf("started %v", g)
	}
	record := started.GetEvents().GetRecords()
	if len(record) != 1 || record[0].GetRollTag() != "given" {
		t.Fatalf("start record %v", record)
	}
	state, listed := started.GetState(), &tavlav1.ListActionsResponse{Actions: started.GetActions(), View: started.GetView()}
	moves, recorded := 0, 1 // recorded: the actions that enter the record (not STEP or UNDO)
	for calls := 0; moves < 8; calls++ {
		if calls > 200 {
			t.Fatalf("no progress after %d actions", calls)
		}
		action := pick(listed.GetActions())
		if action == nil {
			t.Fatalf("nothing to play in %v: %v", listed.GetView().GetPhase(), listed.GetActions())
		}
		if action.GetSide() != listed.GetView().GetSideToAct() {
			t.Fatalf("action %v of the side not to act %v", action, listed.GetView().GetSideToAct())
		}
		acted, err := c.Act(ctx, state, action)
		if err != nil {
			t.Fatalf("%v: %v", action, err)
		}
		if acted.GetView().GetSequence() <= listed.GetView().GetSequence() {
			t.Fatalf("sequence %d after %d", acted.GetView().GetSequence(), listed.GetView().GetSequence())
		}
		record = append(record, acted.GetEvents().GetRecords()...)
		if k := action.GetKind(); k != tavlav1.ActionKind_ACTION_KIND_STEP && k != tavlav1.ActionKind_ACTION_KIND_UNDO {
			recorded++
		}
		if action.GetKind() == tavlav1.ActionKind_ACTION_KIND_CONFIRM_MOVE {
			moves++
			if acted.GetView().GetSideToAct() != other(action.GetSide()) {
				t.Fatalf("after %v, %v to act", action, acted.GetView().GetSideToAct())
			}
		}
		state, listed = acted.GetState(), &tavlav1.ListActionsResponse{Actions: acted.GetActions(), View: acted.GetView()}
	}
	// ListActions answers what the last Act did.
	again, err := c.ListActions(ctx, state)
	if err != nil || !proto.Equal(again.GetView(), listed.GetView()) || len(again.GetActions()) != len(listed.GetActions()) {
		t.Fatalf("ListActions %v, %v; Act gave %v", again, err, listed)
	}
	if listed.GetView().GetPhase() != tavlav1.GamePhase_GAME_PHASE_ROLL_OR_DOUBLE || listed.GetView().GetSideToAct() != tavlav1.Side_SIDE_WHITE {
		t.Fatalf("after 8 moves: %v, %v to act", listed.GetView().GetPhase(), listed.GetView().GetSideToAct())
	}
	resign := &tavlav1.GameAction{Kind: tavlav1.ActionKind_ACTION_KIND_RESIGN, Side: tavlav1.Side_SIDE_WHITE, Detail: &tavlav1.GameAction_ResignKind{ResignKind: tavlav1.ResultKind_RESULT_KIND_SINGLE}}
	offered, err := c.Act(ctx, state, resign)
	if err != nil {
		t.Fatal(err)
	}
	if offered.GetView().GetPhase() != tavlav1.GamePhase_GAME_PHASE_RESIGNATION_DECISION || offered.GetView().GetSideToAct() != tavlav1.Side_SIDE_BLACK {
		t.Fatalf("offered %v, %v to act", offered.GetView().GetPhase(), offered.GetView().GetSideToAct())
	}
	ended, err := c.Act(ctx, offered.GetState(), tavla.Action(tavlav1.ActionKind_ACTION_KIND_ACCEPT_RESIGNATION, tavlav1.Side_SIDE_BLACK))
	if err != nil {
		t.Fatal(err)
	}
	g, ev := ended.GetView(), ended.GetEvents()
	if g.GetPhase() != tavlav1.GamePhase_GAME_PHASE_MATCH_OVER || ev.GetOutcome() == nil ||
		g.GetMatch().GetWinner() != tavlav1.Side_SIDE_BLACK || g.GetMatch().GetBlackScore() != 1 || g.GetMatch().GetWhiteScore() != 0 ||
		ev.GetOutcome().GetPoints() != 1 {
		t.Fatalf("ended %v, events %v", g, ev)
	}
	// One entry per recorded action, the resignation and its acceptance included.
	record = append(record, offered.GetEvents().GetRecords()...)
	record = append(record, ev.GetRecords()...)
	if len(record) != recorded+2 || record[len(record)-1].GetOutcome().GetPoints() != 1 {
		t.Fatalf("%d record entries, last %v", len(record), record[len(record)-1])
	}
	// A finished match takes no more actions.
	_, err = c.Act(ctx, ended.GetState(), tavla.Action(tavlav1.ActionKind_ACTION_KIND_ROLL, tavlav1.Side_SIDE_WHITE))
	if e, ok := tavla.AsError(err); !ok || e.Reason == "" {
		t.Fatalf("acting after the match: %v", err)
	}
}

func TestTheOtherHelpers(t *testing.T) {
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	start := tavla.ByID(tavla.StartPositionID)

	bo, err := c.BearOff(ctx, start)
	if err != nil || bo.GetWhite().GetPipCount() != 167 || bo.GetWhite().GetCanBearOff() || !bo.GetBlack().GetContact() || len(bo.GetMoves()) != 0 {
		t.Errorf("bear-off %v, %v", bo, err)
	}
	commit, err := c.CommitDice(ctx, tavla.SeedSHA256("players' seed"))
	if err != nil || len(commit.GetCommitment()) == 0 || commit.GetToken() == "" {
		t.Errorf("commit %v, %v", commit, err)
	}
	name, err := c.NameRoll(ctx, 5, 1)
	if err != nil || name.GetName().GetTurkish() != "penç yek" || name.GetName().GetNumbers() != "5-1" {
		t.Errorf("roll name %v, %v", name, err)
	}
	match := &tavlav1.MatchState{Length: 5}
	offer, err := c.OfferResignation(ctx, match, tavlav1.Side_SIDE_WHITE, tavlav1.ResultKind_RESULT_KIND_GAMMON)
	if err != nil || offer.GetOutcome().GetPoints() != 2 || offer.GetOutcome().GetWinner() != tavlav1.Side_SIDE_BLACK {
		t.Errorf("offer %v, %v", offer, err)
	}
	answer, err := c.AnswerResignation(ctx, match, tavlav1.Side_SIDE_WHITE, tavlav1.ResultKind_RESULT_KIND_SINGLE, true)
	if err != nil || answer.GetOutcome() == nil || answer.GetOutcome().GetPoints() != 1 {
		t.Errorf("answer %v, %v", answer, err)
	}
	rejected, err := c.AnswerResignation(ctx, match, tavlav1.Side_SIDE_WHITE, tavlav1.ResultKind_RESULT_KIND_SINGLE, false)
	if err != nil || rejected.GetOutcome() != nil {
		t.Errorf("rejected %v, %v", rejected, err)
	}
	clock, err := c.AdvanceClock(ctx, &tavlav1.ClockSettings{MoveTime: durationpb.New(12 * time.Second)}, nil, tavlav1.Side_SIDE_WHITE, tavlav1.ClockEvent_CLOCK_EVENT_MOVE, 15*time.Second)
	// 3 s over the 12 s move time: white uses one of its 3 extensions, black keeps its own.
	if err != nil || clock.GetForfeit() != nil || clock.GetExtensionsUsed() != 1 ||
		clock.GetState().GetWhite().GetExtensionsLeft() != 2 || clock.GetState().GetBlack().GetExtensionsLeft() != 3 {
		t.Errorf("clock %v, %v", clock, err)
	}
	c.Ruleset = &tavlav1.Ruleset{Preset: "turkish"}
	rules, err := c.ResolveRuleset(ctx, nil)
	if err != nil || rules.GetRuleset().GetPreset() != "turkish" {
		t.Errorf("rules %v, %v", rules, err)
	}
	presets, err := c.ListRulesets(ctx)
	names := map[string]bool{}
	for _, p := range presets.GetPresets() {
		names[p.GetName()] = true
	}
	if err != nil || !names["turkish"] || !names["international"] {
		t.Errorf("presets %v, %v", names, err)
	}
	c.Ruleset = nil
	render, err := c.RenderPosition(ctx, start, []uint32{5, 1}, nil, nil)
	if err != nil || !strings.Contains(render.GetSvg(), "<svg") || render.GetText() == "" ||
		render.GetPosition().GetIds().GetPositionId() != tavla.StartPositionID {
		t.Errorf("render %v, %v", render, err)
	}
}

func TestValidate(t *testing.T) {
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	record, err := os.Open(filepath.Join(repoRoot, "tests", "data", "matches", "match0023.mat"))
	if err != nil {
		t.Fatal(err)
	}
	defer record.Close()
	var verdicts []*tavlav1.ValidateMatchResponse
	// Small chunks: the record crosses many messages.
	err = c.ValidateMatch(ctx, record, tavla.ValidateOptions{Format: tavlav1.RecordFormat_RECORD_FORMAT_MAT, Source: "match0023.mat", ChunkBytes: 100},
		func(v *tavlav1.ValidateMatchResponse) error {
			verdicts = append(verdicts, v)
			return nil
		})
	if err != nil || len(verdicts) != 2 {
		t.Fatalf("%d verdicts, %v: %v", len(verdicts), err, verdicts)
	}
	game, rec := verdicts[0].GetGame(), verdicts[1].GetRecord()
	if game == nil || game.GetSource() != "match0023.mat" || game.GetGameNumber() != 1 || game.GetPlaysChecked() == 0 ||
		game.GetFirstIllegal() != nil || !game.GetPointsAgree() {
		t.Errorf("game verdict %v", game)
	}
	if rec == nil || !rec.GetReadable() || rec.GetGames() != 1 || rec.GetPlaysChecked() != game.GetPlaysChecked() {
		t.Errorf("record verdict %v", rec)
	}
	// The callback's error ends the stream and comes back.
	stop := errors.New("stop")
	_, _ = record.Seek(0, 0)
	if err := c.ValidateMatch(ctx, record, tavla.ValidateOptions{}, func(*tavlav1.ValidateMatchResponse) error { return stop }); err != stop {
		t.Errorf("callback error: %v", err)
	}
	// So does a reader's.
	broken := errors.New("disk on fire")
	if err := c.ValidateMatch(ctx, failingReader{broken}, tavla.ValidateOptions{}, func(*tavlav1.ValidateMatchResponse) error { return nil }); !errors.Is(err, broken) {
		t.Errorf("reader error: %v", err)
	}
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// serverEvaluator asks the live server (one cheap 1-ply call) what evaluates backgammon there:
// bgsage's net (EVALUATOR_NEURAL_NET, in .venv-test) or, where bgsage is not installed (no
// Linux aarch64 wheel, docs/analysis.md), the search player (EVALUATOR_SEARCH).
func serverEvaluator(t *testing.T, c *tavla.Client) tavlav1.Evaluator {
	t.Helper()
	eval, err := c.EvaluatePosition(context.Background(), tavla.ByID(tavla.StartPositionID), nil, tavlav1.AnalysisLevel_ANALYSIS_LEVEL_BEGINNER)
	if err != nil {
		t.Fatal(err)
	}
	kind := eval.GetInfo().GetEvaluator()
	if kind != tavlav1.Evaluator_EVALUATOR_NEURAL_NET && kind != tavlav1.Evaluator_EVALUATOR_SEARCH {
		t.Fatalf("evaluator %v", kind)
	}
	return kind
}

// TestAnalysisHelpers: the AnalysisService helpers against the live server at the cheap 1-ply
// levels, what holds whichever evaluator the server has: the start's 3-1 ranked among its legal
// moves, its prospects and cube, a 3-game .mat reviewed, the computer's first two actions of a
// refereed match, and bad input refused. The net's own judgements: TestAnalysisByTheNet.
func TestAnalysisHelpers(t *testing.T) {
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	kind := serverEvaluator(t, c)
	start := tavla.ByID(tavla.StartPositionID)
	level := tavlav1.AnalysisLevel_ANALYSIS_LEVEL_INTERMEDIATE

	ranked, err := c.SuggestMove(ctx, start, 3, 1, nil, level, 3)
	if err != nil {
		t.Fatal(err)
	}
	if info := ranked.GetInfo(); len(ranked.GetMoves()) != 3 || info.GetLevel() != level ||
		info.GetEvaluator() != kind || info.GetPly() != 1 {
		t.Fatalf("3-1 ranked %v", ranked)
	}
	legal, err := c.ListLegalMoves(ctx, start, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	notations := map[string]bool{}
	for _, m := range legal {
		notations[m.GetNotation()] = true
	}
	// The level's noise orders them, so the best need not be among the 3: the losses differ as
	// the equities do.
	first := ranked.GetMoves()[0]
	for _, m := range ranked.GetMoves() {
		if !notations[m.GetMove().GetNotation()] {
			t.Errorf("%q is not a legal 3-1 (%d legal)", m.GetMove().GetNotation(), len(legal))
		}
		diff := (first.GetEquity() - m.GetEquity()) - (m.GetEquityLoss() - first.GetEquityLoss())
		if m.GetEquityLoss() < 0 || diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s: equity %v, loss %v; %s: equity %v, loss %v", m.GetMove().GetNotation(), m.GetEquity(),
				m.GetEquityLoss(), first.GetMove().GetNotation(), first.GetEquity(), first.GetEquityLoss())
		}
	}

	eval, err := c.EvaluatePosition(ctx, start, nil, level)
	if p := eval.GetProbabilities(); err != nil || p.GetWin() <= 0 || p.GetWin() >= 1 || p.GetWinGammon() > p.GetWin() ||
		eval.GetInfo().GetEvaluator() != kind {
		t.Errorf("start evaluated %v, %v", eval, err)
	}
	// No evaluator doubles at the start (a centered cube, money play).
	cube, err := c.SuggestCubeAction(ctx, start, nil, level)
	if err != nil || cube.GetAdvice() != tavlav1.CubeAdvice_CUBE_ADVICE_NO_DOUBLE || !cube.GetDoubleAvailable() || cube.GetShouldDouble() {
		t.Errorf("start's cube %v, %v", cube, err)
	}

	mat, err := os.ReadFile(filepath.Join("..", "..", "..", "tests", "data", "matches", "match0000.mat"))
	if err != nil {
		t.Fatal(err)
	}
	review, err := c.AnalyzeMatch(ctx, string(mat), tavlav1.AnalysisLevel_ANALYSIS_LEVEL_BEGINNER)
	if err != nil {
		t.Fatal(err)
	}
	if review.GetGames() != 3 || len(review.GetPlayers()) != 2 || len(review.GetDecisions()) == 0 ||
		review.GetPlayers()[0].GetSide() != tavlav1.Side_SIDE_WHITE || review.GetPlayers()[0].GetMoves() == 0 {
		t.Errorf("review: %d games, players %v, %d decisions", review.GetGames(), review.GetPlayers(), len(review.GetDecisions()))
	}

	// The same review streamed: progress counts up to its total, then the same answer.
	var done []uint32
	streamed, err := c.StreamAnalyzeMatch(ctx, string(mat), tavlav1.AnalysisLevel_ANALYSIS_LEVEL_BEGINNER,
		func(p *tavlav1.AnalyzeMatchProgress) error {
			if len(done) > 0 && p.GetDecisionsDone() <= done[len(done)-1] {
				t.Errorf("progress went from %d to %d", done[len(done)-1], p.GetDecisionsDone())
			}
			done = append(done, p.GetDecisionsDone())
			if p.GetGames() != 3 || p.GetDecisionsDone() > p.GetDecisionsTotal() {
				t.Errorf("progress %v", p)
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(done) < 100 || streamed.GetGames() != 3 || len(streamed.GetDecisions()) == 0 ||
		streamed.GetPlayers()[0].GetMoves() != review.GetPlayers()[0].GetMoves() {
		t.Errorf("streamed review: %d progress messages, %d games, %d decisions", len(done), streamed.GetGames(),
			len(streamed.GetDecisions()))
	}

	// The computer starts the game, then plays a step of white's 5-1 that Act accepts.
	opened, err := c.NewMatch(ctx, 1, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	firstAction, err := c.SuggestAction(ctx, opened.GetState(), tavlav1.AnalysisLevel_ANALYSIS_LEVEL_BEGINNER)
	if err != nil || firstAction.GetAction().GetKind() != tavlav1.ActionKind_ACTION_KIND_START_GAME {
		t.Fatalf("first action %v, %v", firstAction, err)
	}
	started, err := c.Act(tavla.WithTestDice(ctx, 5, 1), opened.GetState(), firstAction.GetAction())
	if err != nil {
		t.Fatal(err)
	}
	step, err := c.SuggestAction(ctx, started.GetState(), tavlav1.AnalysisLevel_ANALYSIS_LEVEL_BEGINNER)
	if err != nil || step.GetAction().GetKind() != tavlav1.ActionKind_ACTION_KIND_STEP || step.GetAction().GetSide() != tavlav1.Side_SIDE_WHITE {
		t.Fatalf("white's first step %v, %v", step, err)
	}
	if _, err := c.Act(ctx, started.GetState(), step.GetAction()); err != nil {
		t.Fatalf("step %v: %v", step.GetAction(), err)
	}

	// Bad input: INVALID_ARGUMENT naming the field.
	_, err = c.SuggestMove(ctx, start, 7, 1, nil, level, 3)
	if e, ok := tavla.AsError(err); !ok || e.Code != codes.InvalidArgument || len(e.Fields) != 1 || e.Fields[0] != "dice" {
		t.Errorf("a 7-1 ranked: %v", err)
	}
	_, err = c.AnalyzeMatch(ctx, "not a match", tavlav1.AnalysisLevel_ANALYSIS_LEVEL_BEGINNER)
	if e, ok := tavla.AsError(err); !ok || e.Code != codes.InvalidArgument || len(e.Fields) != 1 || e.Fields[0] != "mat" {
		t.Errorf("a bad .mat reviewed: %v", err)
	}
}

// TestAnalysisByTheNet: what bgsage's net judges at the start (skipped where the server has no
// net and analyses by its search player): 8/5 6/5 the best 3-1, the side on roll's chances just
// over even.
func TestAnalysisByTheNet(t *testing.T) {
	c, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if kind := serverEvaluator(t, c); kind != tavlav1.Evaluator_EVALUATOR_NEURAL_NET {
		t.Skipf("the server analyses by %v, not bgsage's net (bgsage not installed there)", kind)
	}
	ctx := context.Background()
	start := tavla.ByID(tavla.StartPositionID)
	level := tavlav1.AnalysisLevel_ANALYSIS_LEVEL_INTERMEDIATE

	ranked, err := c.SuggestMove(ctx, start, 3, 1, nil, level, 3)
	if err != nil {
		t.Fatal(err)
	}
	var best *tavlav1.AnalyzedMove
	for _, m := range ranked.GetMoves() {
		if m.GetEquityLoss() == 0 {
			best = m
		}
	}
	if best.GetMove().GetNotation() != "8/5 6/5" {
		t.Errorf("best 3-1 %v, want 8/5 6/5 (the point-making play) among %v", best, ranked.GetMoves())
	}
	eval, err := c.EvaluatePosition(ctx, start, nil, level)
	if p := eval.GetProbabilities(); err != nil || p.GetWin() < 0.5 || p.GetWin() > 0.56 || p.GetWinGammon() <= 0 || p.GetWinGammon() >= p.GetWin() {
		t.Errorf("start evaluated %v, %v", eval, err)
	}
}

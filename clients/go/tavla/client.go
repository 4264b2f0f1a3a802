// Package tavla is the Go client of the tavla.v1 services of the stateless tavla and backgammon
// rules engine (RulesService, MatchService, RefereeService, RecordsService, AnalysisService): a
// small typed wrapper over the generated stubs in package tavlav1.
//
// NewClient opens one channel with the default service config that every tavla client shares
// (ServiceConfig: a 30 s deadline for calls without one, up to 5 attempts on UNAVAILABLE). The
// Client holds the five generated stubs over it (Rules, Match, Referee, Records, Analysis), so every RPC is
// available with its full request and response, and every RPC has a helper method (Helpers)
// taking the request's main fields. AsError reads the rich error details, including the
// player's message in the locale WithLocale asks for.
package tavla

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

// DefaultTarget is where `make serve` listens.
const DefaultTarget = "localhost:50051"

// StartPositionID is the Position ID of the starting position (R2), for either side on roll.
const StartPositionID = "4HPwATDgc/ABMA"

// ServiceConfig is the default service config of every tavla client
// (clients/service_config.json; a test checks they agree). The timeout is the deadline of a call
// that sets none and the longest any call gets; UNAVAILABLE is retried with exponential backoff.
// Every RPC is stateless, so retrying is always safe. ValidateMatch streams a whole archive: no
// timeout and no retry (a retry would send it again).
const ServiceConfig = `{
  "methodConfig": [
    {
      "name": [
        {"service": "tavla.v1.RulesService"},
        {"service": "tavla.v1.MatchService"},
        {"service": "tavla.v1.RefereeService"},
        {"service": "tavla.v1.RecordsService"},
        {"service": "tavla.v1.AnalysisService"}
      ],
      "timeout": "30s",
      "retryPolicy": {
        "maxAttempts": 5,
        "initialBackoff": "0.1s",
        "maxBackoff": "2s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"]
      }
    },
    {
      "name": [{"service": "tavla.v1.RecordsService", "method": "ValidateMatch"}]
    }
  ]
}`

// Helpers names the helper method of Client for each RPC of the five services (RPC names are
// unique across them; a test checks every RPC of the service descriptors has one): the RPC's own
// name, as in every tavla client (Python in snake case, TypeScript and Java in camel case). The
// stubs (Client.Rules, ...) take the whole request; the helpers take its main fields.
var Helpers = map[string]string{
	"GetInitialPosition": "GetInitialPosition", "ListLegalMoves": "ListLegalMoves", "ApplyMove": "ApplyMove",
	"ScoreGame": "ScoreGame", "BearOff": "BearOff", "ListLegalSteps": "ListLegalSteps",
	"StartGame": "StartGame", "CommitDice": "CommitDice", "RollDice": "RollDice", "NameRoll": "NameRoll",
	"ListCubeActions": "ListCubeActions", "ApplyCubeAction": "ApplyCubeAction",
	"OfferResignation": "OfferResignation", "AnswerResignation": "AnswerResignation",
	"UpdateMatch": "UpdateMatch", "AdvanceClock": "AdvanceClock", "ResolveRuleset": "ResolveRuleset",
	"ListRulesets": "ListRulesets", "RenderPosition": "RenderPosition",
	"NewMatch": "NewMatch", "ListActions": "ListActions", "Act": "Act",
	"ValidateMatch": "ValidateMatch", "ExportMatch": "ExportMatch",
	"SuggestMove": "SuggestMove", "EvaluatePosition": "EvaluatePosition", "SuggestCubeAction": "SuggestCubeAction",
	"AnalyzeMatch": "AnalyzeMatch", "SuggestAction": "SuggestAction",
	"StreamAnalyzeMatch": "StreamAnalyzeMatch",
}

// Client is a connection to a tavla engine: one channel and the generated stub of each service
// over it. It is safe for concurrent use.
type Client struct {
	// Rules is RulesService: positions, legal moves, scoring, bear-off, pictures, roll names.
	Rules tavlav1.RulesServiceClient
	// Match is MatchService: steps, the start of a game, dice, the cube, resignations, the
	// score, clocks and rulesets.
	Match tavlav1.MatchServiceClient
	// Referee is RefereeService: NewMatch, ListActions and Act over one signed state.
	Referee tavlav1.RefereeServiceClient
	// Records is RecordsService: ValidateMatch and ExportMatch.
	Records tavlav1.RecordsServiceClient
	// Analysis is AnalysisService: move, position, cube and match analysis and the computer
	// opponent (docs/analysis.md).
	Analysis tavlav1.AnalysisServiceClient
	conn     *grpc.ClientConn
	// Ruleset is sent with every helper call; nil means the server's default (international).
	Ruleset *tavlav1.Ruleset
	// variants is the first ListRulesets answer's facts (Variants), kept.
	variants   *VariantTable
	variantsMu sync.Mutex
}

// NewClient creates a client for target ("host:port" or any gRPC target URI). It does not
// connect until the first call. The defaults are plaintext and ServiceConfig; opts come after
// them, so grpc.WithTransportCredentials or grpc.WithDefaultServiceConfig replace them.
func NewClient(target string, opts ...grpc.DialOption) (*Client, error) {
	all := append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(ServiceConfig),
	}, opts...)
	conn, err := grpc.NewClient(target, all...)
	if err != nil {
		return nil, err
	}
	return &Client{
		Rules:    tavlav1.NewRulesServiceClient(conn),
		Match:    tavlav1.NewMatchServiceClient(conn),
		Referee:  tavlav1.NewRefereeServiceClient(conn),
		Records:  tavlav1.NewRecordsServiceClient(conn),
		Analysis: tavlav1.NewAnalysisServiceClient(conn),
		conn:     conn,
	}, nil
}

// Conn is the underlying channel.
func (c *Client) Conn() *grpc.ClientConn { return c.conn }

// Close closes the channel.
func (c *Client) Close() error { return c.conn.Close() }

// ByID is a Position given by its Position ID; on roll unset means white.
func ByID(positionID string) *tavlav1.Position {
	return &tavlav1.Position{Checkers: &tavlav1.Position_PositionId{PositionId: positionID}}
}

// Notation is a Move given by its notation, e.g. "24/23 13/8".
func Notation(notation string) *tavlav1.Move {
	return &tavlav1.Move{Notation: notation}
}

// GetInitialPosition is the starting position with onRoll on roll (SIDE_UNSPECIFIED: white).
func (c *Client) GetInitialPosition(ctx context.Context, onRoll tavlav1.Side) (*tavlav1.Position, error) {
	r, err := c.Rules.GetInitialPosition(ctx, &tavlav1.GetInitialPositionRequest{Ruleset: c.Ruleset, OnRoll: onRoll})
	if err != nil {
		return nil, err
	}
	return r.GetPosition(), nil
}

// ListLegalMoves lists every legal move for the roll d1-d2; never empty (one empty move when no die
// can be played).
func (c *Client) ListLegalMoves(ctx context.Context, position *tavlav1.Position, d1, d2 uint32) ([]*tavlav1.Move, error) {
	r, err := c.Rules.ListLegalMoves(ctx, &tavlav1.ListLegalMovesRequest{Ruleset: c.Ruleset, Position: position, Dice: []uint32{d1, d2}})
	if err != nil {
		return nil, err
	}
	return r.GetMoves(), nil
}

// ApplyMove applies move (one of ListLegalMoves, or Notation("...")) for the roll d1-d2.
func (c *Client) ApplyMove(ctx context.Context, position *tavlav1.Position, d1, d2 uint32, move *tavlav1.Move) (*tavlav1.ApplyMoveResponse, error) {
	return c.Rules.ApplyMove(ctx, &tavlav1.ApplyMoveRequest{Ruleset: c.Ruleset, Position: position, Dice: []uint32{d1, d2}, Move: move})
}

// ScoreGame scores a position: Outcome is set exactly when one side has borne off all its checkers
// (15; hypergammon 3; R15-R17), its points with the cube at 1.
func (c *Client) ScoreGame(ctx context.Context, position *tavlav1.Position) (*tavlav1.ScoreGameResponse, error) {
	return c.Rules.ScoreGame(ctx, &tavlav1.ScoreGameRequest{Ruleset: c.Ruleset, Position: position})
}

// LocaleKey is the request metadata that picks the language of the player messages ("en", "tr").
const LocaleKey = "x-tavla-locale"

// WithLocale sends locale ("tr" or "en") as LocaleKey with every call: the language of the
// player messages that AsError reads into Error.Localized.
func WithLocale(locale string) grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any,
		cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(metadata.AppendToOutgoingContext(ctx, LocaleKey, locale), method, req, reply, cc, opts...)
	})
}

// ListLegalSteps lists the legal next single-die steps after steps (checker by checker), whether they
// make a complete move, and its Outcome when it ends the game; match (may be nil) sets the cube.
func (c *Client) ListLegalSteps(ctx context.Context, position *tavlav1.Position, dice []uint32, steps []*tavlav1.CheckerMove, match *tavlav1.MatchState) (*tavlav1.ListLegalStepsResponse, error) {
	return c.Match.ListLegalSteps(ctx, &tavlav1.ListLegalStepsRequest{Ruleset: c.Ruleset, Position: position, Dice: dice, Steps: steps, Match: match})
}

// StartGame starts a game of match (the server rolls): the starter, its dice (larger first), the roll-off.
func (c *Client) StartGame(ctx context.Context, match *tavlav1.MatchState) (*tavlav1.StartGameResponse, error) {
	return c.Match.StartGame(ctx, &tavlav1.StartGameRequest{Ruleset: c.Ruleset, Match: match})
}

// RollDice rolls two dice (larger first) with their Turkish name; Gele when position (may be nil)
// has a checker on the bar that the roll cannot enter, position read under the client's Ruleset.
func (c *Client) RollDice(ctx context.Context, position *tavlav1.Position) (*tavlav1.RollDiceResponse, error) {
	req := &tavlav1.RollDiceRequest{Position: position}
	if position != nil { // the server reads the ruleset only with a position
		req.Ruleset = c.Ruleset
	}
	return c.Match.RollDice(ctx, req)
}

// ListCubeActions lists the cube actions side may take now, and why it may not double.
func (c *Client) ListCubeActions(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side) (*tavlav1.ListCubeActionsResponse, error) {
	return c.Match.ListCubeActions(ctx, &tavlav1.ListCubeActionsRequest{Ruleset: c.Ruleset, Match: match, Side: side})
}

// ApplyCubeAction applies a cube action of side; a drop ends the game with Outcome.
func (c *Client) ApplyCubeAction(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side, action tavlav1.CubeAction) (*tavlav1.ApplyCubeActionResponse, error) {
	return c.Match.ApplyCubeAction(ctx, &tavlav1.ApplyCubeActionRequest{Ruleset: c.Ruleset, Match: match, Side: side, Action: action})
}

// UpdateMatch scores a finished game: pass any answer's Outcome unchanged.
func (c *Client) UpdateMatch(ctx context.Context, match *tavlav1.MatchState, outcome *tavlav1.GameOutcome) (*tavlav1.UpdateMatchResponse, error) {
	return c.Match.UpdateMatch(ctx, &tavlav1.UpdateMatchRequest{Ruleset: c.Ruleset, Match: match, Outcome: outcome})
}

// BearOff gives the bear-off figures of both sides and the race odds; with dice, the
// moves ranked by their bear-off equity and the best one.
func (c *Client) BearOff(ctx context.Context, position *tavlav1.Position, dice ...uint32) (*tavlav1.BearOffResponse, error) {
	return c.Rules.BearOff(ctx, &tavlav1.BearOffRequest{Ruleset: c.Ruleset, Position: position, Dice: dice})
}

// SeedSHA256 is the hex SHA-256 of a client seed, the form CommitDice sends (never the seed).
func SeedSHA256(clientSeed string) string {
	sum := sha256.Sum256([]byte(clientSeed))
	return hex.EncodeToString(sum[:])
}

// CommitDice asks for a commitment and a token to roll verifiable dice with (docs/dice.md), bound
// to the client seed the players fixed first, given by its SeedSHA256 ("" binds none).
func (c *Client) CommitDice(ctx context.Context, clientSeedSHA256 string) (*tavlav1.CommitDiceResponse, error) {
	return c.Match.CommitDice(ctx, &tavlav1.CommitDiceRequest{ClientSeedSha256: clientSeedSHA256})
}

// NameRoll gives the Turkish name of the roll d1-d2 (R26), e.g. "Penç yek" for 5-1.
func (c *Client) NameRoll(ctx context.Context, d1, d2 uint32) (*tavlav1.NameRollResponse, error) {
	return c.Rules.NameRoll(ctx, &tavlav1.NameRollRequest{Dice: []uint32{d1, d2}})
}

// OfferResignation tells what side's resignation of kind (single, gammon, backgammon) pays if accepted.
func (c *Client) OfferResignation(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side, kind tavlav1.ResultKind) (*tavlav1.OfferResignationResponse, error) {
	return c.Match.OfferResignation(ctx, &tavlav1.OfferResignationRequest{Ruleset: c.Ruleset, Match: match,
		Offer: &tavlav1.ResignationOffer{Side: side, Kind: kind}})
}

// AnswerResignation accepts (the game ends with Outcome) or rejects side's resignation of kind.
func (c *Client) AnswerResignation(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side, kind tavlav1.ResultKind, accept bool) (*tavlav1.AnswerResignationResponse, error) {
	return c.Match.AnswerResignation(ctx, &tavlav1.AnswerResignationRequest{Ruleset: c.Ruleset, Match: match,
		Offer: &tavlav1.ResignationOffer{Side: side, Kind: kind}, Accept: accept})
}

// AdvanceClock gives the clock after side used elapsed (whole milliseconds) on event
// (CLOCK_EVENT_UNSPECIFIED: a move), or the forfeit it causes; state nil is the clock at the
// match's start.
func (c *Client) AdvanceClock(ctx context.Context, settings *tavlav1.ClockSettings, state *tavlav1.ClockState, side tavlav1.Side, event tavlav1.ClockEvent, elapsed time.Duration) (*tavlav1.AdvanceClockResponse, error) {
	return c.Match.AdvanceClock(ctx, &tavlav1.AdvanceClockRequest{Settings: settings, State: state, Side: side, Event: event, Elapsed: durationpb.New(elapsed)})
}

// ResolveRuleset gives ruleset (nil: the client's Ruleset) with its preset and every option resolved.
func (c *Client) ResolveRuleset(ctx context.Context, ruleset *tavlav1.Ruleset) (*tavlav1.ResolveRulesetResponse, error) {
	if ruleset == nil {
		ruleset = c.Ruleset
	}
	return c.Match.ResolveRuleset(ctx, &tavlav1.ResolveRulesetRequest{Ruleset: ruleset})
}

// ListRulesets lists the named rulesets with their options.
func (c *Client) ListRulesets(ctx context.Context) (*tavlav1.ListRulesetsResponse, error) {
	return c.Match.ListRulesets(ctx, &tavlav1.ListRulesetsRequest{})
}

// RenderPosition draws position as an SVG document and as text, with dice, the match score and the
// cube when given (match and options may be nil; docs/formats.md).
func (c *Client) RenderPosition(ctx context.Context, position *tavlav1.Position, dice []uint32, match *tavlav1.MatchState, options *tavlav1.RenderOptions) (*tavlav1.RenderPositionResponse, error) {
	return c.Rules.RenderPosition(ctx, &tavlav1.RenderPositionRequest{Ruleset: c.Ruleset, Position: position, Dice: dice, Match: match, Options: options})
}

// NewMatch starts a refereed match (docs/game-state.md) of length points (0: money play),
// clock nil for none, matchID "" for one the server picks: keep the answer's State and send it
// back with the next action, with the answer's View to show and Actions to offer.
func (c *Client) NewMatch(ctx context.Context, length uint32, clock *tavlav1.ClockSettings, matchID string) (*tavlav1.NewMatchResponse, error) {
	return c.Referee.NewMatch(ctx, &tavlav1.NewMatchRequest{Ruleset: c.Ruleset, Length: length, Clock: clock, MatchId: matchID})
}

// ListActions lists the legal actions of the side to act in state, with its View: what the answer
// that returned state already gave (a frontend needs this only for a state kept elsewhere).
func (c *Client) ListActions(ctx context.Context, state *tavlav1.SignedGameState) (*tavlav1.ListActionsResponse, error) {
	return c.Referee.ListActions(ctx, &tavlav1.ListActionsRequest{State: state})
}

// Act applies action (one of the last answer's Actions, or one built with Action) to state
// and gives, in one round trip, the next State, its View, its legal Actions, and the Events
// with the record entries the action added (Events.Records; keep them to keep the record).
func (c *Client) Act(ctx context.Context, state *tavlav1.SignedGameState, action *tavlav1.GameAction) (*tavlav1.ActResponse, error) {
	return c.Referee.Act(ctx, &tavlav1.ActRequest{State: state, Action: action})
}

// Action is a GameAction of kind by side, e.g. Action(tavlav1.ActionKind_ACTION_KIND_ROLL, side).
func Action(kind tavlav1.ActionKind, side tavlav1.Side) *tavlav1.GameAction {
	return &tavlav1.GameAction{Kind: kind, Side: side}
}

// TestDiceKey and TestNowKey are the request metadata a test server (--test-inputs, state mode
// off) reads for Act: the dice to roll ("6,1") and the time in ms since the Unix epoch.
const (
	TestDiceKey = "x-tavla-test-dice"
	TestNowKey  = "x-tavla-test-now-ms"
)

// WithTestDice is ctx sending dice as TestDiceKey: the dice of the next START_GAME or ROLL on a
// test server. Any other server refuses it (CLIENT_DICE_REFUSED).
func WithTestDice(ctx context.Context, dice ...uint32) context.Context {
	parts := make([]string, len(dice))
	for i, d := range dice {
		parts[i] = strconv.FormatUint(uint64(d), 10)
	}
	return metadata.AppendToOutgoingContext(ctx, TestDiceKey, strings.Join(parts, ","))
}

// ExportMatch writes a refereed match as a .mat (format EXPORT_FORMAT_UNSPECIFIED or _MAT) or .sgf
// file (docs/match-files.md): state is its latest state, records every entry of the
// Events.Records the Act answers gave, in order (they must lead to the state's record
// digest). The answer's Content is the file, FileName a name for it; a match in play gives its
// games so far.
func (c *Client) ExportMatch(ctx context.Context, state *tavlav1.SignedGameState, records []*tavlav1.ActionRecord, format tavlav1.ExportFormat) (*tavlav1.ExportMatchResponse, error) {
	return c.Records.ExportMatch(ctx, &tavlav1.ExportMatchRequest{State: state, Records: records, Format: format})
}

// SuggestMove ranks the legal moves of position for the roll d1-d2
// (docs/analysis.md): Moves in the level's order of preference (the first is the one the level
// plays; with the noise of the levels below EXPERT not always the best equity), each with its
// equity per unit of the cube, its EquityLoss against the best and the mover's chances. match
// nil is money play with the cube centred (a 1-point match for a ruleset without money play);
// level ANALYSIS_LEVEL_UNSPECIFIED is EXPERT; maxMoves 0 returns every legal move.
func (c *Client) SuggestMove(ctx context.Context, position *tavlav1.Position, d1, d2 uint32, match *tavlav1.MatchState, level tavlav1.AnalysisLevel, maxMoves uint32) (*tavlav1.SuggestMoveResponse, error) {
	return c.Analysis.SuggestMove(ctx, &tavlav1.SuggestMoveRequest{Ruleset: c.Ruleset, Position: position, Dice: []uint32{d1, d2}, Match: match, Level: level, MaxMoves: maxMoves})
}

// EvaluatePosition gives the side on roll's chances (Probabilities, each 0-1) and equity before it rolls:
// CubelessEquity, and Equity with the cube as match (nil as in SuggestMove) has it.
func (c *Client) EvaluatePosition(ctx context.Context, position *tavlav1.Position, match *tavlav1.MatchState, level tavlav1.AnalysisLevel) (*tavlav1.EvaluatePositionResponse, error) {
	return c.Analysis.EvaluatePosition(ctx, &tavlav1.EvaluatePositionRequest{Ruleset: c.Ruleset, Position: position, Match: match, Level: level})
}

// SuggestCubeAction tells whether the side on roll should double and the other side take (R19-R21):
// Advice, DoubleAvailable (else DoubleDeniedReason, an ErrorReason name) and
// the no-double, double/take and double/pass equities per unit of the cube.
func (c *Client) SuggestCubeAction(ctx context.Context, position *tavlav1.Position, match *tavlav1.MatchState, level tavlav1.AnalysisLevel) (*tavlav1.SuggestCubeActionResponse, error) {
	return c.Analysis.SuggestCubeAction(ctx, &tavlav1.SuggestCubeActionRequest{Ruleset: c.Ruleset, Position: position, Match: match, Level: level})
}

// AnalyzeMatch analyses a Jellyfish .mat record given as text (docs/match-files.md):
// Players holds white's (player 1's) and black's error rates and performance ratings, Decisions
// every decision's error. The client's Ruleset (nil: the international rules with the record's
// headers) is the rules it was played by; level ANALYSIS_LEVEL_UNSPECIFIED is ADVANCED. An .sgf
// record goes through the stub: c.Analysis.AnalyzeMatch with AnalyzeMatchRequest_Sgf.
func (c *Client) AnalyzeMatch(ctx context.Context, mat string, level tavlav1.AnalysisLevel) (*tavlav1.AnalyzeMatchResponse, error) {
	return c.Analysis.AnalyzeMatch(ctx, &tavlav1.AnalyzeMatchRequest{Record: &tavlav1.AnalyzeMatchRequest_Mat{Mat: mat}, Ruleset: c.Ruleset, Level: level})
}

// StreamAnalyzeMatch is AnalyzeMatch with its progress, for a frontend to show while it waits:
// each is called with every AnalyzeMatchProgress as it comes (decisions judged so far of the
// total, and the game), in order, and the review is returned at the end, equal to AnalyzeMatch's.
// An error from each ends the stream (and the server's analysis) and is returned.
func (c *Client) StreamAnalyzeMatch(ctx context.Context, mat string, level tavlav1.AnalysisLevel, each func(*tavlav1.AnalyzeMatchProgress) error) (*tavlav1.AnalyzeMatchResponse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.Analysis.StreamAnalyzeMatch(ctx, &tavlav1.StreamAnalyzeMatchRequest{Record: &tavlav1.StreamAnalyzeMatchRequest_Mat{Mat: mat}, Ruleset: c.Ruleset, Level: level})
	if err != nil {
		return nil, err
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			if err == io.EOF {
				err = errors.New("tavla: StreamAnalyzeMatch ended without its result")
			}
			return nil, err
		}
		if result := msg.GetResult(); result != nil {
			return result, nil
		}
		if err := each(msg.GetProgress()); err != nil {
			return nil, err
		}
	}
}

// SuggestAction is the computer's Action at level for the side to act in a referee state:
// pass it to Act with the same state, two calls per action. It never
// resigns and never claims a timeout; level ANALYSIS_LEVEL_UNSPECIFIED is EXPERT.
func (c *Client) SuggestAction(ctx context.Context, state *tavlav1.SignedGameState, level tavlav1.AnalysisLevel) (*tavlav1.SuggestActionResponse, error) {
	return c.Analysis.SuggestAction(ctx, &tavlav1.SuggestActionRequest{State: state, Level: level})
}

// ValidateOptions are the first message's fields of a ValidateMatch stream.
type ValidateOptions struct {
	// Format of the record (RECORD_FORMAT_UNSPECIFIED: sniffed).
	Format tavlav1.RecordFormat
	// Rules to check under (VALIDATION_RULES_UNSPECIFIED: the server's default, auto).
	Rules tavlav1.ValidationRules
	// Source names the record in the verdicts, e.g. its file name.
	Source string
	// ChunkBytes is the size of the pieces sent; 0 means 64 KiB.
	ChunkBytes int
}

// ValidateMatch checks the .mat or .sgf match records read from record on the server:
// each is called with every verdict as it comes, one per game, then one per record. It returns
// the first error of the call, of reading record, or of each (which ends the stream).
func (c *Client) ValidateMatch(ctx context.Context, record io.Reader, opts ValidateOptions, each func(*tavlav1.ValidateMatchResponse) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.Records.ValidateMatch(ctx)
	if err != nil {
		return err
	}
	size := opts.ChunkBytes
	if size <= 0 {
		size = 32 << 10 // with its framing, below the server's 64 KiB request limit
	}
	// Send while receiving: verdicts come as games complete, and flow control would block a
	// sender that waits for the end.
	sent := make(chan error, 1)
	go func() {
		first := &tavlav1.ValidateMatchRequest{Format: opts.Format, Rules: opts.Rules, Source: opts.Source}
		buf := make([]byte, size)
		for {
			n, rerr := record.Read(buf)
			if n > 0 {
				req := &tavlav1.ValidateMatchRequest{}
				if first != nil {
					req, first = first, nil
				}
				req.Piece = &tavlav1.ValidateMatchRequest_Chunk{Chunk: append([]byte(nil), buf[:n]...)}
				if err := stream.Send(req); err != nil {
					sent <- nil // the receiver sees the call's error
					return
				}
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				sent <- rerr
				cancel()
				return
			}
		}
		if first != nil { // an empty record: the options still go
			if err := stream.Send(first); err != nil {
				sent <- nil
				return
			}
		}
		sent <- stream.CloseSend()
	}()
	for {
		verdict, err := stream.Recv()
		if err == io.EOF {
			return <-sent
		}
		if err != nil {
			select {
			case serr := <-sent:
				if serr != nil {
					return serr
				}
			default:
			}
			return err
		}
		if err := each(verdict); err != nil {
			return err
		}
	}
}

// Error is a failed call with the rich details the engine sends (AIP-193).
type Error struct {
	// Code is the gRPC status code (INVALID_ARGUMENT for every client mistake).
	Code codes.Code
	// Message is the status message.
	Message string
	// Reason, Domain and Metadata come from a google.rpc.ErrorInfo: the rule an illegal move
	// breaks (MUST_USE_BOTH_DICE, GAME_OVER, ...), domain "tavla.v1", metadata "move", "dice" or
	// "winner". Empty for other errors.
	Reason   string
	Domain   string
	Metadata map[string]string
	// Fields are the request fields named by google.rpc.BadRequest field violations.
	Fields []string
	// Localized is the error worded for players (google.rpc.LocalizedMessage), in Locale
	// ("en", "tr"; see WithLocale).
	Localized string
	Locale    string
}

func (e *Error) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%s [%s]: %s", CodeName(e.Code), e.Reason, e.Message)
	}
	return fmt.Sprintf("%s: %s", CodeName(e.Code), e.Message)
}

// AsError reads the status and details of an error returned by a call; ok is false for nil or
// an error that carries no gRPC status.
func AsError(err error) (e *Error, ok bool) {
	if err == nil {
		return nil, false
	}
	var already *Error
	if errors.As(err, &already) {
		return already, true
	}
	st, ok := status.FromError(err)
	if !ok {
		return nil, false
	}
	e = &Error{Code: st.Code(), Message: st.Message(), Metadata: map[string]string{}}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			e.Reason, e.Domain = d.GetReason(), d.GetDomain()
			for k, v := range d.GetMetadata() {
				e.Metadata[k] = v
			}
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				e.Fields = append(e.Fields, v.GetField())
			}
		case *errdetails.LocalizedMessage:
			e.Localized, e.Locale = d.GetMessage(), d.GetLocale()
		}
	}
	return e, true
}

var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
	"OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
}

// CodeName is the canonical name of a status code, as in the gRPC spec: "INVALID_ARGUMENT".
func CodeName(c codes.Code) string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("CODE_%d", uint32(c))
}

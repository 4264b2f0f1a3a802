// Package tavla is the Go client of tavla.v1.EngineService, the stateless tavla and backgammon
// rules engine: a small typed wrapper over the generated stubs in package tavlav1.
//
// NewClient opens a channel with the default service config that every tavla client shares
// (ServiceConfig: a 30 s deadline for calls without one, up to 5 attempts on UNAVAILABLE). The
// Client embeds tavlav1.EngineServiceClient, so every RPC is available with its full request and
// response, and every RPC has a helper (Helpers) taking the request's main fields. AsError reads
// the rich error details, including the player's message in the locale WithLocale asks for.
package tavla

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

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
      "name": [{"service": "tavla.v1.EngineService"}],
      "timeout": "30s",
      "retryPolicy": {
        "maxAttempts": 5,
        "initialBackoff": "0.1s",
        "maxBackoff": "2s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": ["UNAVAILABLE"]
      }
    },
    {
      "name": [{"service": "tavla.v1.EngineService", "method": "ValidateMatch"}]
    }
  ]
}`

// Helpers names the helper method of Client for each RPC of tavla.v1.EngineService (a test
// checks every RPC of the service descriptor has one). The helpers cannot take the RPC's own
// name: Client embeds the generated client, whose methods take the whole request.
var Helpers = map[string]string{
	"GetInitialPosition": "InitialPosition", "ListLegalMoves": "LegalMoves", "ApplyMove": "Play",
	"ScoreGame": "Score", "BearOff": "BearOffFigures", "ListLegalSteps": "Steps",
	"StartGame": "Start", "CommitDice": "Commit", "RollDice": "Roll", "NameRoll": "RollName",
	"ListCubeActions": "CubeOptions", "ApplyCubeAction": "Cube",
	"OfferResignation": "Offer", "AnswerResignation": "Answer",
	"UpdateMatch": "Update", "AdvanceClock": "Clock", "GetRuleset": "Rules",
	"ListRulesets": "Presets", "RenderPosition": "Render",
	"NewMatch": "OpenMatch", "ListActions": "Actions", "Act": "Perform",
	"ValidateMatch": "Validate",
}

// Client is a connection to a tavla engine. It is safe for concurrent use.
type Client struct {
	tavlav1.EngineServiceClient
	conn *grpc.ClientConn
	// Ruleset is sent with every helper call; nil means the server's default (international).
	Ruleset *tavlav1.Ruleset
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
	return &Client{EngineServiceClient: tavlav1.NewEngineServiceClient(conn), conn: conn}, nil
}

// Conn is the underlying channel.
func (c *Client) Conn() *grpc.ClientConn { return c.conn }

// Close closes the channel.
func (c *Client) Close() error { return c.conn.Close() }

// ByID is a Position given by its Position ID; on roll unset means white.
func ByID(positionID string) *tavlav1.Position {
	return &tavlav1.Position{PositionId: positionID}
}

// Notation is a Move given by its notation, e.g. "24/23 13/8".
func Notation(notation string) *tavlav1.Move {
	return &tavlav1.Move{Notation: notation}
}

// InitialPosition is the starting position with onRoll on roll (SIDE_UNSPECIFIED: white).
func (c *Client) InitialPosition(ctx context.Context, onRoll tavlav1.Side) (*tavlav1.Position, error) {
	r, err := c.GetInitialPosition(ctx, &tavlav1.GetInitialPositionRequest{Ruleset: c.Ruleset, OnRoll: onRoll})
	if err != nil {
		return nil, err
	}
	return r.GetPosition(), nil
}

// LegalMoves lists every legal move for the roll d1-d2; never empty (one empty move when no die
// can be played).
func (c *Client) LegalMoves(ctx context.Context, position *tavlav1.Position, d1, d2 uint32) ([]*tavlav1.Move, error) {
	r, err := c.ListLegalMoves(ctx, &tavlav1.ListLegalMovesRequest{Ruleset: c.Ruleset, Position: position, Dice: []uint32{d1, d2}})
	if err != nil {
		return nil, err
	}
	return r.GetMoves(), nil
}

// Play applies move (one of LegalMoves, or Notation("...")) for the roll d1-d2.
func (c *Client) Play(ctx context.Context, position *tavlav1.Position, d1, d2 uint32, move *tavlav1.Move) (*tavlav1.ApplyMoveResponse, error) {
	return c.ApplyMove(ctx, &tavlav1.ApplyMoveRequest{Ruleset: c.Ruleset, Position: position, Dice: []uint32{d1, d2}, Move: move})
}

// Score scores a position: GameOver false while nobody has borne off all 15; Outcome is the
// end of the game (the one end-of-game type, GameResult is kept for compatibility).
func (c *Client) Score(ctx context.Context, position *tavlav1.Position) (*tavlav1.ScoreGameResponse, error) {
	return c.ScoreGame(ctx, &tavlav1.ScoreGameRequest{Ruleset: c.Ruleset, Position: position})
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

// Steps lists the legal next single-die steps after steps (checker by checker), whether they
// make a complete move, and its Outcome when it ends the game; match (may be nil) sets the cube.
func (c *Client) Steps(ctx context.Context, position *tavlav1.Position, dice []uint32, steps []*tavlav1.CheckerMove, match *tavlav1.MatchState) (*tavlav1.ListLegalStepsResponse, error) {
	return c.ListLegalSteps(ctx, &tavlav1.ListLegalStepsRequest{Ruleset: c.Ruleset, Position: position, Dice: dice, Steps: steps, Match: match})
}

// Start starts a game of match (the server rolls): the starter, its dice (larger first), the roll-off.
func (c *Client) Start(ctx context.Context, match *tavlav1.MatchState) (*tavlav1.StartGameResponse, error) {
	return c.StartGame(ctx, &tavlav1.StartGameRequest{Ruleset: c.Ruleset, Match: match})
}

// Roll rolls two dice (larger first) with their Turkish name; Gele when position (may be nil)
// has a checker on the bar that the roll cannot enter.
func (c *Client) Roll(ctx context.Context, position *tavlav1.Position) (*tavlav1.RollDiceResponse, error) {
	return c.RollDice(ctx, &tavlav1.RollDiceRequest{Position: position})
}

// CubeOptions lists the cube actions side may take now, and why it may not double.
func (c *Client) CubeOptions(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side) (*tavlav1.ListCubeActionsResponse, error) {
	return c.ListCubeActions(ctx, &tavlav1.ListCubeActionsRequest{Ruleset: c.Ruleset, Match: match, Side: side})
}

// Cube applies a cube action of side; a drop ends the game with Outcome.
func (c *Client) Cube(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side, action tavlav1.CubeAction) (*tavlav1.ApplyCubeActionResponse, error) {
	return c.ApplyCubeAction(ctx, &tavlav1.ApplyCubeActionRequest{Ruleset: c.Ruleset, Match: match, Side: side, Action: action})
}

// Update scores a finished game: pass any answer's Outcome unchanged.
func (c *Client) Update(ctx context.Context, match *tavlav1.MatchState, outcome *tavlav1.GameOutcome) (*tavlav1.UpdateMatchResponse, error) {
	return c.UpdateMatch(ctx, &tavlav1.UpdateMatchRequest{Ruleset: c.Ruleset, Match: match, Outcome: outcome})
}

// BearOffFigures gives the bear-off figures of both sides and the race odds; with dice, the
// moves ranked by their bear-off equity and the best one.
func (c *Client) BearOffFigures(ctx context.Context, position *tavlav1.Position, dice ...uint32) (*tavlav1.BearOffResponse, error) {
	return c.BearOff(ctx, &tavlav1.BearOffRequest{Ruleset: c.Ruleset, Position: position, Dice: dice})
}

// SeedSHA256 is the hex SHA-256 of a client seed, the form Commit sends (never the seed).
func SeedSHA256(clientSeed string) string {
	sum := sha256.Sum256([]byte(clientSeed))
	return hex.EncodeToString(sum[:])
}

// Commit asks for a commitment and a token to roll verifiable dice with (docs/dice.md), bound
// to the client seed the players fixed first, given by its SeedSHA256 ("" binds none).
func (c *Client) Commit(ctx context.Context, clientSeedSHA256 string) (*tavlav1.CommitDiceResponse, error) {
	return c.CommitDice(ctx, &tavlav1.CommitDiceRequest{ClientSeedSha256: clientSeedSHA256})
}

// RollName gives the Turkish name of the roll d1-d2 (R26), e.g. "Penç yek" for 5-1.
func (c *Client) RollName(ctx context.Context, d1, d2 uint32) (*tavlav1.NameRollResponse, error) {
	return c.NameRoll(ctx, &tavlav1.NameRollRequest{Dice: []uint32{d1, d2}})
}

// Offer tells what side's resignation of kind (single, gammon, backgammon) pays if accepted.
func (c *Client) Offer(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side, kind tavlav1.ResultKind) (*tavlav1.OfferResignationResponse, error) {
	return c.OfferResignation(ctx, &tavlav1.OfferResignationRequest{Ruleset: c.Ruleset, Match: match,
		Offer: &tavlav1.ResignationOffer{Side: side, Kind: kind}})
}

// Answer accepts (the game ends with Outcome) or rejects side's resignation of kind.
func (c *Client) Answer(ctx context.Context, match *tavlav1.MatchState, side tavlav1.Side, kind tavlav1.ResultKind, accept bool) (*tavlav1.AnswerResignationResponse, error) {
	return c.AnswerResignation(ctx, &tavlav1.AnswerResignationRequest{Ruleset: c.Ruleset, Match: match,
		Offer: &tavlav1.ResignationOffer{Side: side, Kind: kind}, Accept: accept})
}

// Clock gives the clock after side used elapsedMs on event (CLOCK_EVENT_UNSPECIFIED: a move),
// or the forfeit it causes; state nil is the clock at the match's start.
func (c *Client) Clock(ctx context.Context, settings *tavlav1.ClockSettings, state *tavlav1.ClockState, side tavlav1.Side, event tavlav1.ClockEvent, elapsedMs uint32) (*tavlav1.AdvanceClockResponse, error) {
	return c.AdvanceClock(ctx, &tavlav1.AdvanceClockRequest{Settings: settings, State: state, Side: side, Event: event, ElapsedMs: elapsedMs})
}

// Rules gives ruleset (nil: the client's Ruleset) with every option resolved.
func (c *Client) Rules(ctx context.Context, ruleset *tavlav1.Ruleset) (*tavlav1.GetRulesetResponse, error) {
	if ruleset == nil {
		ruleset = c.Ruleset
	}
	return c.GetRuleset(ctx, &tavlav1.GetRulesetRequest{Ruleset: ruleset})
}

// Presets lists the named rulesets with their options.
func (c *Client) Presets(ctx context.Context) (*tavlav1.ListRulesetsResponse, error) {
	return c.ListRulesets(ctx, &tavlav1.ListRulesetsRequest{})
}

// Render draws position as an SVG document and as text, with dice, the match score and the
// cube when given (match and options may be nil; docs/formats.md).
func (c *Client) Render(ctx context.Context, position *tavlav1.Position, dice []uint32, match *tavlav1.MatchState, options *tavlav1.RenderOptions) (*tavlav1.RenderPositionResponse, error) {
	return c.RenderPosition(ctx, &tavlav1.RenderPositionRequest{Ruleset: c.Ruleset, Position: position, Dice: dice, Match: match, Options: options})
}

// OpenMatch starts a refereed match (docs/game-state.md) of length points (0: money play),
// clock nil for none, matchID "" for one the server picks: keep the answer's State and send it
// back with the next action.
func (c *Client) OpenMatch(ctx context.Context, length uint32, clock *tavlav1.ClockSettings, matchID string) (*tavlav1.NewMatchResponse, error) {
	return c.NewMatch(ctx, &tavlav1.NewMatchRequest{Ruleset: c.Ruleset, Length: length, Clock: clock, MatchId: matchID})
}

// Actions lists the legal actions of the side to act in state, with the decoded Game.
func (c *Client) Actions(ctx context.Context, state *tavlav1.SignedGameState) (*tavlav1.ListActionsResponse, error) {
	return c.ListActions(ctx, &tavlav1.ListActionsRequest{State: state})
}

// Perform applies action (one Actions gave, or one built with Action) to state and gives the
// next state, its Game and Events. dice are the dice to roll, only in state mode off.
func (c *Client) Perform(ctx context.Context, state *tavlav1.SignedGameState, action *tavlav1.GameAction, dice ...uint32) (*tavlav1.ActResponse, error) {
	return c.Act(ctx, &tavlav1.ActRequest{State: state, Action: action, Dice: dice})
}

// Action is a GameAction of kind by side, e.g. Action(tavlav1.ActionKind_ACTION_KIND_ROLL, side).
func Action(kind tavlav1.ActionKind, side tavlav1.Side) *tavlav1.GameAction {
	return &tavlav1.GameAction{Kind: kind, Side: side}
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

// Validate checks the .mat or .sgf match records read from record on the server (ValidateMatch):
// each is called with every verdict as it comes, one per game, then one per record. It returns
// the first error of the call, of reading record, or of each (which ends the stream).
func (c *Client) Validate(ctx context.Context, record io.Reader, opts ValidateOptions, each func(*tavlav1.ValidateMatchResponse) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.ValidateMatch(ctx)
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

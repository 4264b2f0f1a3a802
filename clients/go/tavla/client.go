// Package tavla is the Go client of tavla.v1.EngineService, the stateless tavla and backgammon
// rules engine: a small typed wrapper over the generated stubs in package tavlav1.
//
// NewClient opens a channel with the default service config that every tavla client shares
// (ServiceConfig: a 30 s deadline for calls without one, up to 5 attempts on UNAVAILABLE). The
// Client embeds tavlav1.EngineServiceClient, so every RPC is available with its full request and
// response; the helpers cover the common calls and the match-play ones (Steps, Start, Roll,
// CubeOptions, Cube, Update). AsError reads the rich error details, including the player's
// message in the locale WithLocale asks for.
package tavla

import (
	"context"
	"errors"
	"fmt"

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

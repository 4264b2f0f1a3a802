package tavla

import (
	"encoding/base64"
	"fmt"
	"strings"

	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

// Checkers is one side's checkers in its own numbering (R1): Points[0] is point 1, its home
// board is points 1-6, it moves from 24 towards 1.
type Checkers struct {
	Points   [24]uint32
	Bar      uint32
	BorneOff uint32
}

// PipCount is the pips the side needs to bear off every checker (a bar checker counts 25).
func (c Checkers) PipCount() uint32 {
	pips := 25 * c.Bar
	for i, n := range c.Points {
		pips += uint32(i+1) * n
	}
	return pips
}

// DefaultCheckers is the most checkers a side may have in a Position ID, and the count of the
// package functions (DecodePositionID, ...); a variant's own count is VariantFacts.Checkers.
const DefaultCheckers = 15

// HypergammonCheckers is hypergammon's checkers a side, one each on its 24, 23 and 22 points
// (variants-rules.md "Hypergammon"), the count of HypergammonIDs.
const HypergammonCheckers = 3

// PositionIDs reads and writes GNU Backgammon Position IDs for a variant whose sides have
// Checkers checkers each (0 means DefaultCheckers). The ID holds only the checkers on the
// points and the bar: the count says how many a side has borne off, and bounds what a valid ID
// holds. StandardIDs is for 15 (backgammon, Turkish tavla, nackgammon, portes), HypergammonIDs
// for 3; the package functions DecodePositionID, EncodePositionID, PositionFromID and PositionID
// are StandardIDs'.
type PositionIDs struct {
	// Checkers is each side's checkers, 1-15 (0: DefaultCheckers).
	Checkers uint32
}

// StandardIDs are the Position IDs of the variants with 15 checkers a side.
var StandardIDs = PositionIDs{Checkers: DefaultCheckers}

// HypergammonIDs are hypergammon's Position IDs (3 checkers a side).
var HypergammonIDs = PositionIDs{Checkers: HypergammonCheckers}

// IDsFor is the PositionIDs of a variant, by its facts' Checkers (Client.VariantFacts; nil:
// DefaultCheckers).
func IDsFor(facts *tavlav1.VariantFacts) PositionIDs {
	if facts.GetCheckers() == 0 {
		return StandardIDs
	}
	return PositionIDs{Checkers: facts.GetCheckers()}
}

func (f PositionIDs) count() (uint32, error) {
	switch {
	case f.Checkers == 0:
		return DefaultCheckers, nil
	case f.Checkers > DefaultCheckers: // 2 x 15 checkers and 50 separators fill the 80 bits
		return 0, fmt.Errorf("%d checkers a side: at most %d fit in a Position ID", f.Checkers, DefaultCheckers)
	}
	return f.Checkers, nil
}

// DecodePositionID splits a Position ID of a variant with 15 checkers a side
// (StandardIDs.Decode).
func DecodePositionID(id string) (onRoll, opponent Checkers, err error) {
	return StandardIDs.Decode(id)
}

// Decode splits a GNU Backgammon Position ID into the side on roll's and the other side's
// checkers. Format (GNU Backgammon manual): for the side not on roll, then the side on roll,
// points 1-24 and the bar, one 1-bit per checker and a 0-bit after each; 80 bits little-endian
// in 10 bytes, 14 characters of base64 without padding. Each side's BorneOff is f.Checkers less
// the checkers in the ID. It checks the encoding and the checker counts (at most f.Checkers a
// side), not that the two sides never share a point (the server does).
func (f PositionIDs) Decode(id string) (onRoll, opponent Checkers, err error) {
	limit, err := f.count()
	if err != nil {
		return onRoll, opponent, err
	}
	if len(id) != 14 {
		return onRoll, opponent, fmt.Errorf("position ID %q: not 14 characters", id)
	}
	raw, err := base64.RawStdEncoding.Strict().DecodeString(id)
	if err != nil {
		return onRoll, opponent, fmt.Errorf("position ID %q: not base64", id)
	}
	bit := 0
	next := func() bool {
		b := raw[bit/8]>>(bit%8)&1 == 1
		bit++
		return b
	}
	var sides [2]Checkers
	for s := range sides {
		total := uint32(0)
		for p := 0; p < 25; p++ {
			n := uint32(0)
			for bit < 80 && next() {
				n++
			}
			if p < 24 {
				sides[s].Points[p] = n
			} else {
				sides[s].Bar = n
			}
			total += n
		}
		if total > limit {
			return onRoll, opponent, fmt.Errorf("position ID %q: a side has %d checkers, more than %d", id, total, limit)
		}
		sides[s].BorneOff = limit - total
	}
	for ; bit < 80; bit++ {
		if next() {
			return onRoll, opponent, fmt.Errorf("position ID %q: bits past the two sides", id)
		}
	}
	return sides[1], sides[0], nil
}

// EncodePositionID is the Position ID of a position of a variant with 15 checkers a side
// (StandardIDs.Encode).
func EncodePositionID(onRoll, opponent Checkers) (string, error) {
	return StandardIDs.Encode(onRoll, opponent)
}

// Encode is the Position ID of a position, from the side on roll's view (format: Decode). It
// fails when a side has more than f.Checkers checkers on its points, bar and borne off.
func (f PositionIDs) Encode(onRoll, opponent Checkers) (string, error) {
	limit, err := f.count()
	if err != nil {
		return "", err
	}
	var raw [10]byte
	bit := 0
	for _, side := range []Checkers{opponent, onRoll} {
		counts := append(side.Points[:], side.Bar)
		total := uint32(0)
		for _, n := range counts {
			total += n
		}
		if total+side.BorneOff > limit || total > limit {
			return "", fmt.Errorf("a side has %d checkers (%d borne off), more than %d", total+side.BorneOff, side.BorneOff, limit)
		}
		for _, n := range counts {
			for i := uint32(0); i < n; i++ {
				raw[bit/8] |= 1 << (bit % 8)
				bit++
			}
			bit++ // the 0-bit after each point
		}
	}
	return base64.RawStdEncoding.EncodeToString(raw[:]), nil
}

// PositionFromID is the Position of a Position ID of a variant with 15 checkers a side
// (StandardIDs.PositionFromID).
func PositionFromID(id string, onRoll tavlav1.Side) (*tavlav1.Position, error) {
	return StandardIDs.PositionFromID(id, onRoll)
}

// PositionFromID is the Position of a Position ID with its board and, in Ids, the Position ID,
// as the server returns positions (without the other two IDs). onRoll SIDE_UNSPECIFIED means
// white.
func (f PositionIDs) PositionFromID(id string, onRoll tavlav1.Side) (*tavlav1.Position, error) {
	if onRoll == tavlav1.Side_SIDE_UNSPECIFIED {
		onRoll = tavlav1.Side_SIDE_WHITE
	}
	mover, other, err := f.Decode(strings.TrimSpace(id))
	if err != nil {
		return nil, err
	}
	white, black := mover, other
	if onRoll == tavlav1.Side_SIDE_BLACK {
		white, black = other, mover
	}
	return &tavlav1.Position{
		OnRoll:   onRoll,
		Checkers: &tavlav1.Position_Board{Board: &tavlav1.Board{White: sideCheckers(white), Black: sideCheckers(black)}},
		Ids:      &tavlav1.PositionIds{PositionId: strings.TrimSpace(id)},
	}, nil
}

// PositionID is the Position ID of a Position of a variant with 15 checkers a side
// (StandardIDs.PositionID).
func PositionID(p *tavlav1.Position) (string, error) {
	return StandardIDs.PositionID(p)
}

// PositionID is the Position ID of a Position given by its board and side on roll; a Position
// given by its Position ID answers that ID unchecked.
func (f PositionIDs) PositionID(p *tavlav1.Position) (string, error) {
	if p.GetBoard() == nil {
		return p.GetPositionId(), nil
	}
	white, err := checkers(p.GetBoard().GetWhite())
	if err != nil {
		return "", err
	}
	black, err := checkers(p.GetBoard().GetBlack())
	if err != nil {
		return "", err
	}
	if p.GetOnRoll() == tavlav1.Side_SIDE_BLACK {
		return f.Encode(black, white)
	}
	return f.Encode(white, black)
}

func sideCheckers(c Checkers) *tavlav1.SideCheckers {
	return &tavlav1.SideCheckers{Points: append([]uint32(nil), c.Points[:]...), Bar: c.Bar, BorneOff: c.BorneOff, PipCount: c.PipCount()}
}

func checkers(s *tavlav1.SideCheckers) (Checkers, error) {
	var c Checkers
	if len(s.GetPoints()) != 24 {
		return c, fmt.Errorf("%d points, want 24", len(s.GetPoints()))
	}
	copy(c.Points[:], s.GetPoints())
	c.Bar, c.BorneOff = s.GetBar(), s.GetBorneOff()
	return c, nil
}

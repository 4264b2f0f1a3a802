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

const checkersPerSide = 15

// DecodePositionID splits a GNU Backgammon Position ID into the side on roll's and the other
// side's checkers. Format (GNU Backgammon manual): for the side not on roll, then the side on
// roll, points 1-24 and the bar, one 1-bit per checker and a 0-bit after each; 80 bits
// little-endian in 10 bytes, 14 characters of base64 without padding. It checks the encoding and
// the checker counts, not that the two sides never share a point (the server does).
func DecodePositionID(id string) (onRoll, opponent Checkers, err error) {
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
		if total > checkersPerSide {
			return onRoll, opponent, fmt.Errorf("position ID %q: a side has more than 15 checkers", id)
		}
		sides[s].BorneOff = checkersPerSide - total
	}
	for ; bit < 80; bit++ {
		if next() {
			return onRoll, opponent, fmt.Errorf("position ID %q: bits past the two sides", id)
		}
	}
	return sides[1], sides[0], nil
}

// EncodePositionID is the Position ID of a position, from the side on roll's view.
func EncodePositionID(onRoll, opponent Checkers) (string, error) {
	var raw [10]byte
	bit := 0
	for _, side := range []Checkers{opponent, onRoll} {
		counts := append(side.Points[:], side.Bar)
		total := uint32(0)
		for _, n := range counts {
			total += n
			for i := uint32(0); i < n && bit < 80; i++ {
				raw[bit/8] |= 1 << (bit % 8)
				bit++
			}
			bit++ // the 0-bit after each point
		}
		if total > checkersPerSide {
			return "", fmt.Errorf("a side has %d checkers", total)
		}
	}
	return base64.RawStdEncoding.EncodeToString(raw[:]), nil
}

// PositionFromID is the Position of a Position ID with its board and, in Ids, the Position ID,
// as the server returns positions (without the other two IDs). onRoll SIDE_UNSPECIFIED means
// white.
func PositionFromID(id string, onRoll tavlav1.Side) (*tavlav1.Position, error) {
	if onRoll == tavlav1.Side_SIDE_UNSPECIFIED {
		onRoll = tavlav1.Side_SIDE_WHITE
	}
	mover, other, err := DecodePositionID(strings.TrimSpace(id))
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

// PositionID is the Position ID of a Position given by its board and side on roll.
func PositionID(p *tavlav1.Position) (string, error) {
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
		return EncodePositionID(black, white)
	}
	return EncodePositionID(white, black)
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

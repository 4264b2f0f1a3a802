//! Reading a GNU Backgammon Position ID into the internal board, accepting exactly what
//! `tavla.core.ids.position_id.decode` accepts (and `playable()`: no finished game), so the server
//! can hand the request's ID straight to the generator. Anything refused here goes back to the
//! Python path, which raises the engine's own error; so a refusal never needs a reason.
//!
//! Format (core/ids/position_id.py): 14 base64 characters = 84 bits, of which the first 80 are 10
//! bytes, bits read lowest first. For the side not on roll and then the side on roll, each in
//! its own numbering, points 1..24 then the bar: one 1-bit per checker, a 0-bit after each.

use crate::movegen::{Board, BAR};

const LENGTH: usize = 14;
const CHECKERS: u32 = 15;
/// Counts in an ID: 25 per side (24 points and the bar), each ended by a 0-bit.
const RUNS: usize = 50;

/// The 6-bit value of a base64 character (A-Z a-z 0-9 + /), or None: no padding, no URL-safe
/// alphabet, no whitespace (decode's regex).
#[inline(always)]
fn sextet(c: u8) -> Option<u64> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u64)
}

/// The 80 bits of `id` as a u128, the ID's first bit lowest; None unless it is 14 base64
/// characters whose last 4 (spare) bits are zero. Any non-ASCII byte is refused, as decode's
/// regex refuses any non-ASCII character, whatever its byte length.
#[inline(always)]
fn bits(id: &[u8]) -> Option<u128> {
    if id.len() != LENGTH {
        return None;
    }
    // base64 is big-endian: the first character is the top 6 bits of 84
    let mut v: u128 = 0;
    for &c in id {
        v = v << 6 | sextet(c)? as u128;
    }
    // decode re-encodes and compares: only the 4 spare bits can differ (canonical form)
    if v & 0xF != 0 {
        return None;
    }
    // 10 bytes, first byte first; within a byte the lowest bit comes first (little-endian int)
    Some(u128::from_le_bytes({
        let be = (v >> 4).to_be_bytes(); // the 80 bits in the last 10 of 16 bytes
        let mut le = [0u8; 16];
        le[..10].copy_from_slice(&be[6..]);
        le
    }))
}

/// The internal board (`tavla.core.Position.board`: seen from the side on roll) of a Position
/// ID, or None where `decode` refuses it (not 14 base64 characters, a spare bit set, fewer than
/// 50 0-bits, more than 15 checkers for a side, a 1-bit past the two sides, both sides on one
/// point) or `playable()` does (a side with all 15 borne off: the game is over, R15).
///
/// The board does not depend on which colour is on roll: the ID is in the on-roll side's view.
pub fn decode(id: &[u8]) -> Option<Board> {
    let mut rest = bits(id)?;
    // Runs of 1-bits between 0-bits are the counts: 25 of the side not on roll, then 25 of
    // the side on roll. A run longer than 15 is refused at once (decode: too many checkers).
    // Past the 80th bit the u128 reads 0-bits, which decode does not have; but reaching them
    // takes more than 30 1-bits, which the totals below refuse.
    let mut counts = [0u8; RUNS];
    for c in counts.iter_mut() {
        let run = rest.trailing_ones();
        if run > CHECKERS {
            return None;
        }
        *c = run as u8;
        rest >>= run + 1;
    }
    if rest != 0 {
        return None; // a 1-bit past the two sides
    }
    let (theirs, mine) = counts.split_at(25);
    let total = |side: &[u8]| side.iter().map(|&n| n as u32).sum::<u32>();
    let (t, m) = (total(theirs), total(mine));
    if t > CHECKERS || m > CHECKERS || t == 0 || m == 0 {
        return None; // more than 15, or all 15 off (a finished game)
    }
    let mut b: Board = [0; 26];
    for p in 1..=24 {
        // the opponent's point 25 - p is this side's point p
        let (me, opp) = (mine[p - 1] as i8, theirs[24 - p] as i8);
        if me != 0 && opp != 0 {
            return None; // both sides on one point
        }
        b[p] = me - opp;
    }
    b[BAR] = mine[24] as i8;
    b[0] = -(theirs[24] as i8);
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let b = decode(b"4HPwATDgc/ABMA").unwrap();
        assert_eq!((b[24], b[13], b[8], b[6]), (2, 5, 3, 5));
        assert_eq!((b[1], b[12], b[17], b[19]), (-2, -5, -3, -5));
        assert_eq!((b[0], b[BAR]), (0, 0));
    }

    #[test]
    fn refusals() {
        assert!(decode(b"4HPwATDgc/ABMB").is_none()); // a spare bit
        assert!(decode(b"4HPwATDgc/ABM").is_none()); // 13 characters
        assert!(decode(b"4HPwATDgc/ABM=").is_none());
        assert!(decode(b"//////////////").is_none()); // all ones
        assert!(decode(b"AAAAAAAAAAAAAA").is_none()); // nothing on the board: both sides off
    }
}

//! The referee's messages of game.proto in protobuf wire format, one writer per message:
//! `GameState`, `GameView` and an answer's `repeated GameAction` entries, byte for byte what
//! `service/tavla/server/convert/game_wire.py` writes (proto3: fields in number order, zero values
//! left out, packed `repeated uint32`, a set message field written even when empty). Python
//! reads the core values and hands over primitives, the nested messages it keeps per value as
//! ready bytes (ruleset, match, clock, offer, outcome), and a board (a tuple of 26 ints) where
//! this module writes the field itself (a Position ID, a `Position`). Field numbers are those of
//! proto/tavla/v1/game.proto; tests/referee/test_game_wire.py and tests/accel/test_accel_game.py
//! compare the bytes with the protobuf library's.

use crate::movegen::Board;
use crate::wire;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use std::cell::RefCell;

thread_local! {
    /// A `Position` message, written before its length is known.
    static SCRATCH: RefCell<Vec<u8>> = RefCell::new(Vec::with_capacity(256));
}

/// A varint of any u64.
#[inline(always)]
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline(always)]
fn varint_len(v: u64) -> usize {
    (64 - (v | 1).leading_zeros() as usize).div_ceil(7)
}

/// A field's key: `number << 3 | wire_type`.
#[inline(always)]
fn key(out: &mut Vec<u8>, number: u32, wire_type: u32) {
    varint(out, (number << 3 | wire_type) as u64);
}

/// A varint field, left out when zero.
#[inline(always)]
fn number(out: &mut Vec<u8>, field: u32, v: u64) {
    if v != 0 {
        key(out, field, 0);
        varint(out, v);
    }
}

/// A bool field, left out when false.
#[inline(always)]
fn flag(out: &mut Vec<u8>, field: u32, v: bool) {
    if v {
        key(out, field, 0);
        out.push(1);
    }
}

/// A length-delimited field, written even when empty (a set message field).
#[inline(always)]
fn message(out: &mut Vec<u8>, field: u32, payload: &[u8]) {
    key(out, field, 2);
    varint(out, payload.len() as u64);
    out.extend_from_slice(payload);
}

/// A bytes or string field, left out when empty.
#[inline(always)]
fn text(out: &mut Vec<u8>, field: u32, payload: &[u8]) {
    if !payload.is_empty() {
        message(out, field, payload);
    }
}

/// A message field set only when `payload` is given (`None`: not set).
#[inline(always)]
fn optional(out: &mut Vec<u8>, field: u32, payload: Option<&[u8]>) {
    if let Some(p) = payload {
        message(out, field, p);
    }
}

/// A string field of `raw` in lower-case hex, left out when empty.
fn hex(out: &mut Vec<u8>, field: u32, raw: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    if raw.is_empty() {
        return;
    }
    key(out, field, 2);
    varint(out, 2 * raw.len() as u64);
    for &b in raw {
        out.push(DIGITS[(b >> 4) as usize]);
        out.push(DIGITS[(b & 15) as usize]);
    }
}

/// The ints of a tuple (dice: at most a few), each within u64.
fn ints<'py>(t: &Bound<'py, PyTuple>, into: &mut Vec<u64>) -> PyResult<()> {
    into.clear();
    for item in t.iter() {
        into.push(item.extract::<u64>()?);
    }
    Ok(())
}

/// A packed `repeated uint32`, left out when empty.
fn packed(out: &mut Vec<u8>, field: u32, t: &Bound<'_, PyTuple>) -> PyResult<()> {
    if t.is_empty() {
        return Ok(());
    }
    let mut values = Vec::with_capacity(4);
    ints(t, &mut values)?;
    for &v in &values {
        if v > u32::MAX as u64 {
            return Err(PyValueError::new_err("a repeated uint32 value is beyond 32 bits"));
        }
    }
    key(out, field, 2);
    varint(out, values.iter().map(|&v| varint_len(v)).sum::<usize>() as u64);
    for v in values {
        varint(out, v);
    }
    Ok(())
}

/// A `CheckerMove` message (from_point 1, to_point 2, die 3, hit 4) of the core's `CheckerMove`
/// (a tuple `(from, to, die, hit)`), as one entry of `field`.
fn checker_move(out: &mut Vec<u8>, field: u32, step: &Bound<'_, PyAny>) -> PyResult<()> {
    let s = step.cast::<PyTuple>().map_err(|_| PyValueError::new_err("a step is a tuple"))?;
    if s.len() != 4 {
        return Err(PyValueError::new_err("a step is (from, to, die, hit)"));
    }
    let (f, t, d) = (s.get_item(0)?.extract::<u64>()?, s.get_item(1)?.extract::<u64>()?,
                     s.get_item(2)?.extract::<u64>()?);
    let hit = s.get_item(3)?.is_truthy()?;
    let len = [f, t, d].iter().map(|&v| if v == 0 { 0 } else { 1 + varint_len(v) }).sum::<usize>()
        + if hit { 2 } else { 0 };
    key(out, field, 2);
    varint(out, len as u64);
    number(out, 1, f);
    number(out, 2, t);
    number(out, 3, d);
    flag(out, 4, hit);
    Ok(())
}

/// A `repeated CheckerMove` field: one entry per step of the tuple `steps`.
fn steps(out: &mut Vec<u8>, field: u32, steps: &Bound<'_, PyTuple>) -> PyResult<()> {
    for s in steps.iter() {
        checker_move(out, field, &s)?;
    }
    Ok(())
}

/// The 26 counts of a board tuple of a valid position.
fn board_of(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Board> {
    let t = board.cast::<PyTuple>().map_err(|_| PyValueError::new_err("a board is a tuple"))?;
    crate::checked_board(py, t)
}

/// GameState.position (7): the bytes given, or the 10 bytes of the Position ID of a board.
fn position_key(py: Python<'_>, out: &mut Vec<u8>, position: &Bound<'_, PyAny>) -> PyResult<()> {
    if let Ok(raw) = position.cast::<PyBytes>() {
        message(out, 7, raw.as_bytes());
    } else {
        message(out, 7, &wire::position_key(&board_of(py, position)?));
    }
    Ok(())
}

/// A `Position` field: the payload given (bytes), or the FULL `Position` of a board (a tuple
/// of 26 ints, 15 checkers a side) with `on_roll` on roll, as `wire.rs` writes it.
fn position(py: Python<'_>, out: &mut Vec<u8>, field: u32, position: &Bound<'_, PyAny>, on_roll: u8)
            -> PyResult<()> {
    if let Ok(raw) = position.cast::<PyBytes>() {
        message(out, field, raw.as_bytes());
        return Ok(());
    }
    if on_roll != wire::WHITE && on_roll != wire::BLACK {
        return Err(PyValueError::new_err("on_roll must be 1 (white) or 2 (black)"));
    }
    let b = board_of(py, position)?;
    SCRATCH.with(|cell| {
        let scratch = &mut *cell.borrow_mut();
        wire::write_position(&b, on_roll, scratch);
        message(out, field, scratch);
    });
    Ok(())
}

/// The bytes of a `GameState` (format version 2): what `game.py`'s `state_to_bytes` writes.
/// `position`: the key's bytes, or a board whose Position ID is the key; `offer`, `clock`,
/// `outcome`: the messages' bytes, `None` when not set.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn game_state_bytes<'py>(py: Python<'py>, version: u64, match_id: &str, sequence: u64, ruleset: &[u8],
                             match_: &[u8], phase: u64, position: &Bound<'py, PyAny>, on_roll: u64,
                             dice: &Bound<'py, PyTuple>, moves: &Bound<'py, PyTuple>, offer: Option<&[u8]>,
                             resume: u64, clock: Option<&[u8]>, outcome: Option<&[u8]>, turn: u64,
                             commitment: &[u8], digest: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::with_capacity(256 + ruleset.len() + match_.len());
    number(&mut out, 1, version);
    text(&mut out, 2, match_id.as_bytes());
    number(&mut out, 3, sequence);
    message(&mut out, 4, ruleset);
    message(&mut out, 5, match_);
    number(&mut out, 6, phase);
    position_key(py, &mut out, position)?;
    number(&mut out, 8, on_roll);
    packed(&mut out, 9, dice)?;
    steps(&mut out, 10, moves)?;
    optional(&mut out, 11, offer);
    number(&mut out, 12, resume);
    optional(&mut out, 13, clock);
    optional(&mut out, 14, outcome);
    number(&mut out, 15, turn);
    text(&mut out, 16, commitment);
    text(&mut out, 17, digest);
    Ok(PyBytes::new(py, &out))
}

/// `GameView.move_complete`, `no_legal_move` and `forced_move` as bits of `view_bytes`' `flags`.
const COMPLETE: u32 = 1;
const NO_LEGAL_MOVE: u32 = 2;
const FORCED: u32 = 4;

/// The bytes of a `GameView`: what `game.py`'s `view_bytes` writes. `position` and `current`:
/// a `Position`'s bytes, or a board (15 checkers a side) with `on_roll` / `current_on_roll` on
/// roll; `flags`: COMPLETE | NO_LEGAL_MOVE | FORCED; the digests are written in hex.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn game_view_bytes<'py>(py: Python<'py>, match_id: &str, sequence: u64, ruleset: &[u8], match_: &[u8],
                            phase: u64, side_to_act: Option<u64>, position: &Bound<'py, PyAny>, on_roll: u8,
                            current: &Bound<'py, PyAny>, current_on_roll: u8, dice: &Bound<'py, PyTuple>,
                            dice_left: &Bound<'py, PyTuple>, moves: &Bound<'py, PyTuple>, flags: u32,
                            forced_steps: &Bound<'py, PyTuple>, offer: Option<&[u8]>, resume: u64,
                            clock: Option<&[u8]>, outcome: Option<&[u8]>, turn: u64, commitment: &[u8],
                            revealed_seed: &[u8], digest: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::with_capacity(1024 + ruleset.len() + match_.len());
    text(&mut out, 1, match_id.as_bytes());
    number(&mut out, 2, sequence);
    message(&mut out, 3, ruleset);
    message(&mut out, 4, match_);
    number(&mut out, 5, phase);
    number(&mut out, 6, side_to_act.unwrap_or(0));
    self::position(py, &mut out, 7, position, on_roll)?;
    self::position(py, &mut out, 8, current, current_on_roll)?;
    packed(&mut out, 9, dice)?;
    packed(&mut out, 10, dice_left)?;
    steps(&mut out, 11, moves)?;
    flag(&mut out, 12, flags & COMPLETE != 0);
    flag(&mut out, 13, flags & NO_LEGAL_MOVE != 0);
    flag(&mut out, 14, flags & FORCED != 0);
    steps(&mut out, 15, forced_steps)?;
    optional(&mut out, 16, offer);
    number(&mut out, 17, resume);
    optional(&mut out, 18, clock);
    optional(&mut out, 19, outcome);
    number(&mut out, 20, turn);
    hex(&mut out, 21, commitment);
    hex(&mut out, 22, revealed_seed);
    hex(&mut out, 23, digest);
    Ok(PyBytes::new(py, &out))
}

/// A number from `numbers` (a dict of enum members to their proto numbers).
fn enum_number(numbers: &Bound<'_, PyDict>, member: &Bound<'_, PyAny>) -> PyResult<u64> {
    match numbers.get_item(member)? {
        Some(n) => n.extract::<u64>(),
        None => Err(PyValueError::new_err("an enum member without a number")),
    }
}

/// Append the entries of `legal` to `out` (`game_actions_bytes`).
fn actions(py: Python<'_>, out: &mut Vec<u8>, key: &[u8], legal: &Bound<'_, PyTuple>, kinds: &Bound<'_, PyDict>,
           results: &Bound<'_, PyDict>) -> PyResult<()> {
    let mut entry = Vec::with_capacity(32);
    for action in legal.iter() {
        entry.clear();
        number(&mut entry, 1, enum_number(kinds, &action.getattr(intern!(py, "kind"))?)?);
        let side = action.getattr(intern!(py, "side"))?;
        if !side.is_none() {
            number(&mut entry, 2, side.extract::<u64>()?);
        }
        // one oneof: a resign kind replaces a step, as setting it on the message does
        let resign = action.getattr(intern!(py, "resign_kind"))?;
        let step = action.getattr(intern!(py, "step"))?;
        if !step.is_none() && resign.is_none() {
            checker_move(&mut entry, 3, &step)?;
        }
        if !resign.is_none() {
            key_of(&mut entry, 4);
            varint(&mut entry, enum_number(results, &resign)?);
        }
        out.extend_from_slice(key);
        varint(out, entry.len() as u64);
        out.extend_from_slice(&entry);
    }
    Ok(())
}

/// A response's `repeated GameAction` field (`key`: its tag's bytes), one entry per core
/// `Action` of `legal` (kind 1, side 2, step 3, resign_kind 4: the oneof's member written
/// whenever set, the resign kind when both are), its kind and resign kind numbered by `kinds` and `results` (dicts of enum
/// members to numbers): what `game.py`'s `actions_fields` writes.
#[pyfunction]
pub fn game_actions_bytes<'py>(py: Python<'py>, key: &[u8], legal: &Bound<'py, PyTuple>,
                               kinds: &Bound<'py, PyDict>, results: &Bound<'py, PyDict>)
                               -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::with_capacity(16 * legal.len());
    actions(py, &mut out, key, legal, kinds, results)?;
    Ok(PyBytes::new(py, &out))
}

/// The bytes of an `ActResponse` (referee_service.proto): state 1 (a `SignedGameState`: state
/// 1, key_id 2, signature 3), view 2, events 3, actions 4 (`game_actions_bytes`' entries), every
/// message field set.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn act_response_bytes<'py>(py: Python<'py>, state: &[u8], key_id: &str, signature: &[u8], view: &[u8],
                               events: &[u8], legal: &Bound<'py, PyTuple>, kinds: &Bound<'py, PyDict>,
                               results: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::with_capacity(64 + state.len() + signature.len() + view.len() + events.len()
                                     + 16 * legal.len());
    let signed_len = [state.len(), key_id.len(), signature.len()].iter()
        .map(|&n| if n == 0 { 0 } else { 1 + varint_len(n as u64) + n }).sum::<usize>();
    key(&mut out, 1, 2);
    varint(&mut out, signed_len as u64);
    text(&mut out, 1, state);
    text(&mut out, 2, key_id.as_bytes());
    text(&mut out, 3, signature);
    message(&mut out, 2, view);
    message(&mut out, 3, events);
    actions(py, &mut out, &[4 << 3 | 2], legal, kinds, results)?;
    Ok(PyBytes::new(py, &out))
}

/// The key of varint field `number` (a oneof member: written even when zero).
#[inline(always)]
fn key_of(out: &mut Vec<u8>, number: u32) {
    key(out, number, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints() {
        for v in [0u64, 1, 127, 128, 16383, 16384, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            varint(&mut out, v);
            assert_eq!(out.len(), varint_len(v), "{v}");
        }
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
    }
}

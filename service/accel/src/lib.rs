//! tavla_accel: the compiled path of tavla-engine's ListLegalMoves.
//!
//! One call generates every legal move of a position and roll and writes the answer's `moves`
//! field in protobuf wire format, byte-identical to the pure-Python path (`tavla.core.movegen` +
//! `tavla.server.wire`). Python raises every user-facing error (dice, finished game, position:
//! `tavla.server.accel`); this module refuses, with `ValueError`, whatever it cannot answer
//! (a finished game, which Python then reports as the core does, or arguments Python should
//! never pass), so a bug there cannot turn into a wrong answer or a crash.

mod movegen;
mod notation;
mod wire;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use std::cell::RefCell;

thread_local! {
    /// The move list and the answer buffer, reused from call to call on each thread.
    static WORK: RefCell<(movegen::Moves, Vec<u8>)> = RefCell::new((movegen::Moves::new(), Vec::with_capacity(8192)));
}

/// Write the wire bytes of `moves` into `out` (no Python objects: may run without the GIL).
fn encode(moves: &movegen::Moves, board: &movegen::Board, on_roll: u8, view: u8, out: &mut Vec<u8>) {
    out.clear();
    if out.capacity() > 1 << 20 {
        out.shrink_to(8192); // after a rare huge answer
    }
    let unhit = wire::Unhit::new(board);
    for (after, steps) in &moves.list {
        wire::write_move(steps.as_slice(), after, on_roll, view, &unhit, out);
    }
}

/// Check the arguments, then answer: (dice used, move count, bytes), the bytes being the
/// response's `moves` field, followed by its `dice_used` field when `response`.
fn run(py: Python<'_>, board: &Bound<'_, PyTuple>, on_roll: u8, d1: u8, d2: u8, view: u8, response: bool)
       -> PyResult<(u8, usize, Py<PyBytes>)> {
    if !(1..=6).contains(&d1) || !(1..=6).contains(&d2) {
        return Err(PyValueError::new_err("dice must be 1-6"));
    }
    if on_roll != wire::WHITE && on_roll != wire::BLACK {
        return Err(PyValueError::new_err("on_roll must be 1 (white) or 2 (black)"));
    }
    if view != wire::FULL && view != wire::BASIC {
        return Err(PyValueError::new_err("view must be 0 (full) or 1 (basic)"));
    }
    if board.len() != 26 {
        return Err(PyValueError::new_err("a board is 26 ints"));
    }
    let mut b: movegen::Board = [0; 26];
    for (i, v) in b.iter_mut().enumerate() {
        // items by index: no index objects, no sequence protocol
        let n: i64 = board.get_borrowed_item(i)?.extract()?;
        *v = i8::try_from(n).map_err(|_| PyValueError::new_err("board count out of range"))?;
    }
    if !wire::valid_board(&b) {
        return Err(PyValueError::new_err("not a valid board"));
    }
    if b.iter().all(|&v| v <= 0) || b.iter().all(|&v| v >= 0) {
        return Err(PyValueError::new_err("a side has borne off all 15: the game is over"));
    }
    WORK.with(|work| {
        let (moves, out) = &mut *work.borrow_mut();
        // Generation holds the GIL (about 1 us for most rolls, a fraction of a millisecond for
        // the largest doubles); the encoding releases it only for long answers: releasing costs
        // ~20 ns alone, but while other threads hold the GIL, taking it back can wait for
        // them, which a 2 us answer should not.
        let used = movegen::generate(&b, d1, d2, moves);
        let count = moves.list.len();
        if count >= DETACH_FROM {
            py.detach(|| encode(moves, &b, on_roll, view, out));
        } else {
            encode(moves, &b, on_roll, view, out);
        }
        if response && used != 0 {
            out.extend_from_slice(&[0x10, used]); // dice_used (field 2), at most 4: one byte
        }
        Ok((used, count, PyBytes::new(py, out).unbind()))
    })
}

/// Answers of at least this many moves are encoded with the GIL released.
const DETACH_FROM: usize = 64;

/// Every legal move of `board` (the 26-int internal board of `tavla.core.Position`, a tuple;
/// side on roll `on_roll`: 1 white, 2 black) for dice `d1`, `d2`, as
/// `(dice_used, number_of_moves, bytes of the repeated moves field)`; `view` 0 FULL, 1 BASIC.
///
/// Raises ValueError for arguments outside the engine's domain (dice not 1-6, a side not 1 or
/// 2, an unknown view, counts no valid board has, or a side with no checkers left: a finished
/// game); the caller checks those first and raises the engine's own errors.
#[pyfunction]
fn legal_moves_wire(py: Python<'_>, board: &Bound<'_, PyTuple>, on_roll: u8, d1: u8, d2: u8, view: u8)
                    -> PyResult<(u8, usize, Py<PyBytes>)> {
    run(py, board, on_roll, d1, d2, view, false)
}

/// `legal_moves_wire`'s answer as a whole serialized ListLegalMovesResponse: `(number_of_moves,
/// bytes)`, the moves field then `dice_used` (left out when 0), as `tavla.server.wire`
/// `legal_moves_response` writes it. Same arguments and errors.
#[pyfunction]
fn legal_moves_response(py: Python<'_>, board: &Bound<'_, PyTuple>, on_roll: u8, d1: u8, d2: u8, view: u8)
                        -> PyResult<(usize, Py<PyBytes>)> {
    let (_, count, bytes) = run(py, board, on_roll, d1, d2, view, true)?;
    Ok((count, bytes))
}

#[pymodule]
fn tavla_accel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(legal_moves_wire, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves_response, m)?)?;
    Ok(())
}

//! tavla_accel: the compiled path of tavla-engine's ListLegalMoves, and of the core's move
//! generator (`generate`: the Python objects `tavla.core.rules.movegen.generate` returns).
//!
//! One call generates every legal move of a position and roll and writes the answer's `moves`
//! field in protobuf wire format, byte-identical to the pure-Python path (`tavla.core.rules.movegen` +
//! `tavla.server.convert.wire`). Python raises every user-facing error (dice, finished game, position:
//! `tavla.server.api.generator`); this module refuses, with `ValueError`, whatever it cannot answer
//! (a finished game, which Python then reports as the core does, or arguments Python should
//! never pass), so a bug there cannot turn into a wrong answer or a crash.

mod game;
mod movegen;
mod notation;
mod objects;
mod position_id;
mod steps;
mod wire;

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyTuple, PyType};
use std::cell::RefCell;
use std::sync::OnceLock;

thread_local! {
    /// The move list and the answer buffer, reused from call to call on each thread.
    static WORK: RefCell<(movegen::Moves, Vec<u8>)> = RefCell::new((movegen::Moves::new(), Vec::with_capacity(8192)));
    /// `generate`'s move list, apart from WORK: building its Python objects can run other
    /// Python code (a collection's finalizers), which could call the extension again.
    static GENERATED: RefCell<movegen::Moves> = RefCell::new(movegen::Moves::new());
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

/// Where CPython keeps its cached small ints -5..=15 (address of -5, log2 of the spacing), when
/// they lie evenly spaced (checked once, at import: see `small_ints`); else None.
static SMALL_INTS: OnceLock<Option<(usize, u32)>> = OnceLock::new();

/// Finds the cached int objects -5..=15 and checks they sit at one power-of-two spacing (true
/// of CPython 3.10-3.14: one static array); an object at one of those addresses is that int.
fn small_ints() -> Option<(usize, u32)> {
    // Two sets of the 21 ints, all held at once: cached ints are the same objects in both,
    // new objects could not share an address while the others are alive.
    // SAFETY: called with the GIL held (module init); every new reference is released below.
    let make = || (-5..=15).map(|v| unsafe { ffi::PyLong_FromLongLong(v) }).collect::<Vec<_>>();
    let (first, second) = (make(), make());
    let base = first[0] as usize;
    let stride = (first[1] as usize).wrapping_sub(base);
    let ok = stride.is_power_of_two() && stride >= 16
        && first.iter().zip(&second).enumerate()
            .all(|(k, (&a, &b))| !a.is_null() && a == b && a as usize == base + k * stride);
    for o in first.into_iter().chain(second) {
        if !o.is_null() {
            unsafe { ffi::Py_DECREF(o) };
        }
    }
    // SAFETY: as above; a failed PyLong_FromLongLong (out of memory) left an error to drop.
    unsafe { ffi::PyErr_Clear() };
    ok.then_some((base, stride.trailing_zeros()))
}

/// The 26 counts of `board` (a tuple of length 26). Most counts are the interpreter's cached
/// small ints, recognised by address; the others go through `PyLong_AsLong`, which reads ints,
/// bools and `__index__` objects as `extract::<i64>` does. Per-item `extract` was ~5% of a call.
fn read_board(py: Python<'_>, board: &Bound<'_, PyTuple>) -> PyResult<movegen::Board> {
    let (base, shift) = SMALL_INTS.get().copied().flatten().unwrap_or((usize::MAX, 0));
    let mut b: movegen::Board = [0; 26];
    let mut bad = false;
    for (i, v) in b.iter_mut().enumerate() {
        // SAFETY: `board` is a live tuple of 26 items (checked by the caller) and the GIL is
        // held; PyTuple_GetItem returns a borrowed reference the tuple keeps alive.
        let item = unsafe { ffi::PyTuple_GetItem(board.as_ptr(), i as ffi::Py_ssize_t) };
        let d = (item as usize).wrapping_sub(base);
        let n = if base != usize::MAX && d & ((1 << shift) - 1) == 0 && d >> shift <= 20 {
            (d >> shift) as i64 - 5
        } else {
            // SAFETY: as above; a null item (cannot happen) makes PyLong_AsLong set an error.
            let n = unsafe { ffi::PyLong_AsLong(item) } as i64;
            if n == -1 {
                if let Some(err) = PyErr::take(py) {
                    return Err(err);
                }
            }
            n
        };
        bad |= !(-15..=15).contains(&n);
        *v = n as i8;
    }
    if bad {
        return Err(PyValueError::new_err("board count out of range"));
    }
    Ok(b)
}

/// The counts of `board`, a tuple of 26 ints that a valid position has (each side at most 15
/// checkers, nothing on the wrong bar); ValueError otherwise, or `read_board`'s error.
pub(crate) fn checked_board(py: Python<'_>, board: &Bound<'_, PyTuple>) -> PyResult<movegen::Board> {
    if board.len() != 26 {
        return Err(PyValueError::new_err("a board is 26 ints"));
    }
    let b = read_board(py, board)?;
    if !wire::valid_board(&b) {
        return Err(PyValueError::new_err("not a valid board"));
    }
    Ok(b)
}

/// Refuse a side, dice or view outside the engine's domain.
fn check_args(on_roll: u8, d1: u8, d2: u8, view: u8) -> PyResult<()> {
    if !(1..=6).contains(&d1) || !(1..=6).contains(&d2) {
        return Err(PyValueError::new_err("dice must be 1-6"));
    }
    if on_roll != wire::WHITE && on_roll != wire::BLACK {
        return Err(PyValueError::new_err("on_roll must be 1 (white) or 2 (black)"));
    }
    if view != wire::FULL && view != wire::BASIC {
        return Err(PyValueError::new_err("view must be 0 (full) or 1 (basic)"));
    }
    Ok(())
}

/// Check the arguments, then answer: (move count, the serialized ListLegalMovesResponse).
fn run(py: Python<'_>, board: &Bound<'_, PyTuple>, on_roll: u8, d1: u8, d2: u8, view: u8)
       -> PyResult<(usize, Py<PyBytes>)> {
    check_args(on_roll, d1, d2, view)?;
    let b = checked_board(py, board)?;
    if b.iter().all(|&v| v <= 0) || b.iter().all(|&v| v >= 0) {
        return Err(PyValueError::new_err("a side has borne off all 15: the game is over"));
    }
    answer(py, &b, on_roll, d1, d2, view)
}

/// `run`'s answer for a board already checked (valid, game not over) and checked arguments.
fn answer(py: Python<'_>, b: &movegen::Board, on_roll: u8, d1: u8, d2: u8, view: u8)
          -> PyResult<(usize, Py<PyBytes>)> {
    WORK.with(|work| {
        let (moves, out) = &mut *work.borrow_mut();
        // Generation holds the GIL (about 1 us for most rolls, a fraction of a millisecond for
        // the largest doubles); the encoding releases it only for long answers: releasing costs
        // ~20 ns alone, but while other threads hold the GIL, taking it back can wait for
        // them, which a 2 us answer should not.
        let used = movegen::generate(b, d1, d2, moves);
        let count = moves.list.len();
        if count >= DETACH_FROM {
            py.detach(|| encode(moves, b, on_roll, view, out));
        } else {
            encode(moves, b, on_roll, view, out);
        }
        if used != 0 {
            out.extend_from_slice(&[0x10, used]); // dice_used (field 2), at most 4: one byte
        }
        Ok((count, PyBytes::new(py, out).unbind()))
    })
}

/// Answers of at least this many moves are encoded with the GIL released.
const DETACH_FROM: usize = 64;

/// Every legal move of `board` (the 26-int internal board of `tavla.core.Position`, a tuple;
/// side on roll `on_roll`: 1 white, 2 black) for dice `d1`, `d2`, as a whole serialized
/// ListLegalMovesResponse: `(number_of_moves, bytes)`, the repeated moves field then `dice_used`
/// (left out when 0), as `tavla.server.convert.wire.legal_moves_response` writes it; `view` 0
/// FULL, 1 BASIC.
///
/// Raises ValueError for arguments outside the engine's domain (dice not 1-6, a side not 1 or
/// 2, an unknown view, counts no valid board has, or a side with no checkers left: a finished
/// game); the caller checks those first and raises the engine's own errors.
#[pyfunction]
fn legal_moves_response(py: Python<'_>, board: &Bound<'_, PyTuple>, on_roll: u8, d1: u8, d2: u8, view: u8)
                        -> PyResult<(usize, Py<PyBytes>)> {
    run(py, board, on_roll, d1, d2, view)
}

/// `legal_moves_response` for the position a GNU Backgammon Position ID gives, with `on_roll`
/// (1 white, 2 black) on roll: the server's common request, answered without building a Python
/// position. The ID is read and validated here, accepting exactly what
/// `tavla.core.ids.position_id.decode` accepts, less a finished game (`position_id.rs`).
///
/// Raises ValueError for anything else (a bad ID, a finished game, dice not 1-6, a bad side or
/// view), without a reason worth showing: the caller then takes the Python path, which raises
/// the engine's own error. The ints are i64 so that no value raises OverflowError instead.
#[pyfunction]
fn legal_moves_response_from_id(py: Python<'_>, position_id: &str, on_roll: i64, d1: i64, d2: i64, view: i64)
                                -> PyResult<(usize, Py<PyBytes>)> {
    let small = |v: i64| u8::try_from(v).map_err(|_| PyValueError::new_err("argument out of range"));
    let (on_roll, d1, d2, view) = (small(on_roll)?, small(d1)?, small(d2)?, small(view)?);
    check_args(on_roll, d1, d2, view)?;
    let Some(b) = position_id::decode(position_id.as_bytes()) else {
        return Err(PyValueError::new_err("not a Position ID of a game in play"));
    };
    answer(py, &b, on_roll, d1, d2, view)
}

/// `tavla.core.rules.movegen.generate(board, d1, d2)`'s answer, the same objects in the same order:
/// `(dice used, {resulting board (26 ints, mover's view): (CheckerMove, ...)})`, the first step
/// sequence found per board, the moves in the order the Python search finds them (R4-R14).
/// `set_checker_move` must have been called.
///
/// Raises ValueError for anything it does not answer: dice that are not ints 1-6, a board that
/// is not a tuple of 26 ints no valid position has (counts beyond 15 a side, a negative bar),
/// `set_checker_move` not called; the caller then runs the Python generator.
#[pyfunction]
fn generate<'py>(py: Python<'py>, board: &Bound<'py, PyAny>, d1: &Bound<'py, PyAny>, d2: &Bound<'py, PyAny>)
                 -> PyResult<Bound<'py, PyTuple>> {
    let refuse = |why: &str| PyValueError::new_err(why.to_owned());
    let die = |d: &Bound<'py, PyAny>| match d.extract::<i64>() {
        Ok(v) if d.is_exact_instance_of::<PyInt>() && (1..=6).contains(&v) => Ok(v as u8),
        _ => Err(refuse("dice must be ints 1-6")),
    };
    let (d1, d2) = (die(d1)?, die(d2)?);
    let board = board.cast::<PyTuple>().map_err(|_| refuse("a board is a tuple"))?;
    // every refusal a ValueError (a count that is not an int raises TypeError in read_board)
    let b = checked_board(py, board).map_err(|e| {
        if e.is_instance_of::<PyValueError>(py) { e } else { refuse("board counts must be ints -15..15") }
    })?;
    GENERATED.with(|cell| {
        let mut shared = cell.try_borrow_mut();
        let mut own = None;
        let moves = match shared {
            Ok(ref mut moves) => &mut **moves,
            // called again while building an answer's objects: a list of its own
            Err(_) => own.insert(movegen::Moves::new()),
        };
        let used = movegen::generate(&b, d1, d2, moves);
        objects::answer(py, used, moves)
    })
}

/// A turn checker by checker: what `tavla.core.rules.steps.legal_steps` finds for `board` (the
/// mover's 26 ints, a tuple), the dice `high` >= `low` and the steps so far `done` (a sequence
/// of `(from, to, die)`, die 0 when not given), by backgammon's rules:
/// `(played, board after, dice left, next steps, the legal move's steps when the steps complete
/// it else None, the forced rest else None, dice a legal move uses)`, steps as `CheckerMove`s,
/// the move's steps as the generator lists them. `set_checker_move` must have been called.
///
/// Returns None when a step given is not one legal next step (the pure path then answers, or
/// names the rule it breaks); raises ValueError for anything outside its domain (dice, a board
/// no valid position has, a finished game).
#[pyfunction]
fn turn_steps<'py>(py: Python<'py>, board: &Bound<'py, PyAny>, high: i64, low: i64, done: Vec<(i64, i64, i64)>)
                   -> PyResult<Option<Bound<'py, PyTuple>>> {
    if !(1..=6).contains(&high) || !(1..=6).contains(&low) || high < low {
        return Err(PyValueError::new_err("dice must be 1-6, the larger first"));
    }
    let board = board.cast::<PyTuple>().map_err(|_| PyValueError::new_err("a board is a tuple"))?;
    let b = checked_board(py, board)?;
    if b.iter().all(|&v| v <= 0) || b.iter().all(|&v| v >= 0) {
        return Err(PyValueError::new_err("a side has borne off all its checkers: the game is over"));
    }
    let small = |v: i64| u8::try_from(v).ok().filter(|&v| v <= 25);
    let mut given = Vec::with_capacity(done.len());
    for &(f, t, die) in &done {
        match (small(f), small(t), small(die)) {
            (Some(f), Some(t), Some(die)) => given.push((f, t, die)),
            _ => return Ok(None), // outside the board: the pure path names the field
        }
    }
    let mut moves = movegen::Moves::new();
    match steps::analyse::<movegen::Backgammon>(&b, high as u8, low as u8, &given, &mut moves) {
        Some(a) => objects::analysis(py, &a, &moves).map(Some),
        None => Ok(None),
    }
}

/// The serialized `Position` (FULL view) of `board` (the 26 ints of `tavla.core.Position.board`,
/// a tuple, in the view of the side on roll) with `on_roll` (1 white, 2 black) on roll: what
/// `tavla.server.convert.wire.position(board, on_roll)` writes, for a variant of 15 checkers a
/// side. Raises ValueError for a side other than 1 or 2 or a board no valid position has.
#[pyfunction]
fn position_bytes<'py>(py: Python<'py>, board: &Bound<'py, PyTuple>, on_roll: u8) -> PyResult<Bound<'py, PyBytes>> {
    if on_roll != wire::WHITE && on_roll != wire::BLACK {
        return Err(PyValueError::new_err("on_roll must be 1 (white) or 2 (black)"));
    }
    let b = checked_board(py, board)?;
    let mut out = Vec::with_capacity(256);
    wire::write_position(&b, on_roll, &mut out);
    Ok(PyBytes::new(py, &out))
}

/// Hand over `tavla.core.rules.movegen.CheckerMove`, the class of `generate`'s steps (a tuple
/// subclass); a later call replaces it. Raises ValueError when `cls` is not a tuple subclass
/// built as `tuple.__new__(cls, (from, to, die, hit))`.
#[pyfunction]
fn set_checker_move(cls: &Bound<'_, PyType>) -> PyResult<()> {
    objects::set_checker_move(cls)
}

#[pymodule]
fn tavla_accel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    SMALL_INTS.get_or_init(small_ints);
    m.add_function(wrap_pyfunction!(legal_moves_response, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves_response_from_id, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(set_checker_move, m)?)?;
    m.add_function(wrap_pyfunction!(turn_steps, m)?)?;
    m.add_function(wrap_pyfunction!(position_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(game::game_state_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(game::game_view_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(game::game_actions_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(game::act_response_bytes, m)?)?;
    Ok(())
}

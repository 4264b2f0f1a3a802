//! The Python objects of a generated move list: what `tavla.core.rules.movegen.generate` returns,
//! `(dice used, {resulting board: (CheckerMove, ...)})`, built from `movegen::Moves`.
//!
//! `CheckerMove` is the core's NamedTuple (a tuple subclass); Python hands the class over once
//! (`set_checker_move`) and its instances are made as `tuple.__new__(CheckerMove, (from, to,
//! die, hit))` makes them, through tuple's own `tp_new` (which also keeps whatever per-version
//! state a tuple has, such as 3.14's cached hash, right). Each distinct step is made once per
//! answer and shared by the sequences that contain it (they are immutable), as the Python
//! generator shares a first step between the second steps that follow it.

use crate::movegen::{Board, Moves, Step, BAR};
use crate::steps::Analysis;
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::sync::atomic::{AtomicPtr, Ordering};

/// The CheckerMove class: a strong reference that is never released (a later class replaces it
/// and the old one stays alive), so a pointer read by a call stays valid whatever happens.
static CHECKER_MOVE: AtomicPtr<ffi::PyObject> = AtomicPtr::new(std::ptr::null_mut());

/// A new reference to `v` as a Python int (the interpreter's cached object for -5..256).
fn int(py: Python<'_>, v: i64) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: the GIL is held; PyLong_FromLongLong returns a new reference or null with an error.
    unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyLong_FromLongLong(v)) }
}

/// A new tuple of `items` (an exact tuple, from PyTuple_New).
fn tuple_of<'py>(py: Python<'py>, items: impl ExactSizeIterator<Item = PyResult<Bound<'py, PyAny>>>)
                 -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the GIL is held; PyTuple_New returns a new reference or null with an error. The
    // tuple is not shared until returned, so PyTuple_SetItem (which steals the item) may fill
    // it; an item left unset on error is null, which tuple deallocation allows.
    unsafe {
        let t = Bound::from_owned_ptr_or_err(py, ffi::PyTuple_New(items.len() as ffi::Py_ssize_t))?;
        for (i, item) in items.enumerate() {
            if ffi::PyTuple_SetItem(t.as_ptr(), i as ffi::Py_ssize_t, item?.into_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(t)
    }
}

/// `tuple.__new__(cls, (from, to, die, hit))`, through tuple's `tp_new` slot.
fn checker_move<'py>(py: Python<'py>, cls: *mut ffi::PyTypeObject, new: ffi::newfunc, s: &Step)
                     -> PyResult<Bound<'py, PyAny>> {
    let fields = tuple_of(py, [int(py, s.from as i64), int(py, s.to as i64), int(py, s.die as i64),
                               Ok(pyo3::types::PyBool::new(py, s.hit).to_owned().into_any())].into_iter())?;
    let args = tuple_of(py, [Ok(fields)].into_iter())?;
    // SAFETY: the GIL is held; `cls` is a live tuple subclass (checked by set_checker_move and
    // kept alive forever) and `new` is tuple's tp_new, which returns a new reference or null.
    unsafe { Bound::from_owned_ptr_or_err(py, new(cls, args.as_ptr(), std::ptr::null_mut())) }
}

/// tuple's `tp_new` slot.
fn tuple_new() -> PyResult<ffi::newfunc> {
    // SAFETY: PyTuple_Type is a static type object; PyType_GetSlot accepts static types since
    // 3.10 and returns the slot's function pointer or null.
    let slot = unsafe { ffi::PyType_GetSlot(std::ptr::addr_of_mut!(ffi::PyTuple_Type), ffi::Py_tp_new) };
    if slot.is_null() {
        return Err(PyValueError::new_err("tuple has no tp_new"));
    }
    // SAFETY: the Py_tp_new slot holds a newfunc.
    Ok(unsafe { std::mem::transmute::<*mut std::ffi::c_void, ffi::newfunc>(slot) })
}

/// Store `cls`, the core's CheckerMove, for `answer`. Checks that it is a tuple subclass whose
/// instance made here equals (and has the type of) `cls(25, 19, 6, True)`.
pub fn set_checker_move(cls: &Bound<'_, PyType>) -> PyResult<()> {
    let py = cls.py();
    if !cls.is_subclass_of::<PyTuple>()? {
        return Err(PyValueError::new_err("CheckerMove must be a tuple subclass"));
    }
    let step = Step { from: BAR as u8, to: 19, die: 6, hit: true };
    let made = checker_move(py, cls.as_type_ptr(), tuple_new()?, &step)?;
    let expected = cls.call1((25, 19, 6, true))?;
    if !made.get_type().is(cls) || !expected.get_type().is(cls) || !made.eq(&expected)? {
        return Err(PyValueError::new_err("CheckerMove is not built as tuple.__new__(cls, (from, to, die, hit))"));
    }
    CHECKER_MOVE.store(cls.clone().into_any().into_ptr(), Ordering::Release);
    Ok(())
}

/// One cached step object per (from, die, hit) (the destination follows from those), per answer.
const STEP_SLOTS: usize = 26 * 7 * 2;

/// `(used, {board: steps})` of `moves`, in their order.
pub fn answer<'py>(py: Python<'py>, used: u8, moves: &Moves) -> PyResult<Bound<'py, PyTuple>> {
    let cls = CHECKER_MOVE.load(Ordering::Acquire);
    if cls.is_null() {
        return Err(PyValueError::new_err("set_checker_move has not been called"));
    }
    let cls = cls.cast::<ffi::PyTypeObject>();
    let new = tuple_new()?;
    let mut made: Vec<Option<Bound<'py, PyAny>>> = vec![None; STEP_SLOTS];
    let mut step = |s: &Step| -> PyResult<Bound<'py, PyAny>> {
        let slot = &mut made[(s.from as usize * 7 + s.die as usize) * 2 + s.hit as usize];
        if let Some(o) = slot {
            return Ok(o.clone());
        }
        let o = checker_move(py, cls, new, s)?;
        *slot = Some(o.clone());
        Ok(o)
    };
    let dict = PyDict::new(py);
    for (after, steps) in &moves.list {
        let key = board_tuple(py, after)?;
        let value = tuple_of(py, steps.as_slice().iter().map(&mut step))?;
        dict.set_item(key, value)?;
    }
    PyTuple::new(py, [int(py, used as i64)?, dict.into_any()])
}

fn board_tuple<'py>(py: Python<'py>, b: &Board) -> PyResult<Bound<'py, PyAny>> {
    tuple_of(py, b.iter().map(|&v| int(py, v as i64)))
}

/// `tavla_accel.turn_steps`' answer of `a` (its moves in `moves`): `(played, board, dice left,
/// next steps, move steps or None, forced steps or None, dice used)`, steps as `CheckerMove`s.
pub fn analysis<'py>(py: Python<'py>, a: &Analysis, moves: &Moves) -> PyResult<Bound<'py, PyTuple>> {
    let cls = CHECKER_MOVE.load(Ordering::Acquire);
    if cls.is_null() {
        return Err(PyValueError::new_err("set_checker_move has not been called"));
    }
    let cls = cls.cast::<ffi::PyTypeObject>();
    let new = tuple_new()?;
    let steps = |list: &[Step]| tuple_of(py, list.iter().map(|s| checker_move(py, cls, new, s)));
    let none = || py.None().into_bound(py);
    let complete = match a.complete {
        Some(i) => steps(moves.list[i].1.as_slice())?,
        None => none(),
    };
    let forced = match &a.forced {
        Some(rest) => steps(rest)?,
        None => none(),
    };
    let left = tuple_of(py, a.pool.as_slice().iter().map(|&d| int(py, d as i64)))?;
    PyTuple::new(py, [steps(&a.played)?, board_tuple(py, &a.board)?, left, steps(&a.next)?, complete, forced,
                      int(py, a.used as i64)?])
}

//! A turn checker by checker: what `tavla.core.rules.steps.legal_steps` answers after the steps
//! so far (the legal next steps, whether the move is complete, whether the rest is forced), by
//! the same tree walk as its `_Turn`, question for question, so the answers come in the same
//! order. The legal moves are `movegen`'s (the same as the core's generator).
//!
//! Only the common path is answered: each step given names one legal next step (or a shortcut
//! to a legal final position). Anything else (a step of several dice, an illegal step, whose
//! answer is an error naming a rule) returns `None`, and the caller takes the pure path.

use crate::movegen::{self, Board, Moves, Rules, Step};
use std::collections::HashMap;

/// The dice not played yet, larger first (a double four times).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pool {
    dice: [u8; 4],
    len: u8,
}

impl Pool {
    fn of(high: u8, low: u8) -> Pool {
        if high == low {
            Pool { dice: [high; 4], len: 4 }
        } else {
            Pool { dice: [high, low, 0, 0], len: 2 }
        }
    }
    pub fn as_slice(&self) -> &[u8] {
        &self.dice[..self.len as usize]
    }
    /// The pool less one `die` (its first).
    fn without(&self, die: u8) -> Pool {
        let mut out = Pool { dice: [0; 4], len: 0 };
        let mut gone = false;
        for &d in self.as_slice() {
            if d == die && !gone {
                gone = true;
                continue;
            }
            out.dice[out.len as usize] = d;
            out.len += 1;
        }
        out
    }
    /// Each distinct die once, in the pool's order (Python's `dict.fromkeys(pool)`).
    fn distinct(&self) -> ([u8; 4], usize) {
        let (mut out, mut n) = ([0u8; 4], 0);
        for &d in self.as_slice() {
            if !out[..n].contains(&d) {
                out[n] = d;
                n += 1;
            }
        }
        (out, n)
    }
}

/// A single-die step and the node it leads to.
type Kid = (Step, Board, Pool);

/// What one analysis answers: `legal_steps`' `StepState` less what Python adds.
pub struct Analysis {
    pub played: Vec<Step>,
    pub board: Board,
    pub pool: Pool,
    pub next: Vec<Step>,
    /// The legal move the steps complete: its index in the generated moves.
    pub complete: Option<usize>,
    /// The rest of the turn when only one final position is left.
    pub forced: Option<Vec<Step>>,
    pub used: u8,
}

struct Turn<'m, R: Rules> {
    full: u8,
    used: u8,
    /// Each legal move's final board, with its index in the moves.
    ends: HashMap<Board, usize>,
    /// `completes`' answers per node.
    reach: HashMap<(Board, Pool), bool>,
    _rules: std::marker::PhantomData<&'m R>,
}

impl<R: Rules> Turn<'_, R> {
    fn depth(&self, pool: &Pool) -> u8 {
        self.full - pool.len
    }

    /// `_Turn.physical`: the single-die steps the board allows, each distinct die once, larger
    /// first, sources highest first.
    fn kids(&self, b: &Board, pool: &Pool) -> Vec<Kid> {
        let mut board = *b;
        let out = R::outside_count(&board);
        let mut found = [0u8; 16];
        let mut kids = Vec::new();
        let (dice, n) = pool.distinct();
        for &die in &dice[..n] {
            let rest = pool.without(die);
            let count = R::sources(&board, die as usize, out, 24, &mut found);
            for &f in &found[..count] {
                let (t, hit) = R::play(&mut board, f as usize, die as usize);
                let after = board;
                R::unplay(&mut board, f as usize, t, hit);
                kids.push((Step { from: f, to: t as u8, die, hit }, after, rest));
            }
        }
        kids
    }

    /// `_Turn.completes`: some further steps reach a legal move's end with `used` dice.
    fn completes(&mut self, b: &Board, pool: &Pool) -> bool {
        if self.depth(pool) == self.used {
            return self.ends.contains_key(b);
        }
        if let Some(&r) = self.reach.get(&(*b, *pool)) {
            return r;
        }
        let kids = self.kids(b, pool);
        let r = kids.iter().any(|(_, c, p)| self.completes(c, p));
        self.reach.insert((*b, *pool), r);
        r
    }

    fn regular(&mut self, b: &Board, pool: &Pool) -> Vec<Kid> {
        let kids = self.kids(b, pool);
        kids.into_iter().filter(|(_, c, p)| self.completes(c, p)).collect()
    }

    fn shortcuts(&self, b: &Board, pool: &Pool) -> Vec<Kid> {
        self.kids(b, pool).into_iter().filter(|(_, c, _)| self.ends.contains_key(c)).collect()
    }

    /// `_Turn.done`.
    fn done(&mut self, b: &Board, pool: &Pool) -> bool {
        self.depth(pool) >= self.used || (self.ends.contains_key(b) && self.regular(b, pool).is_empty())
    }

    /// `_Turn.legal_next`: the regular steps, then the shortcuts not among them.
    fn legal_next(&mut self, b: &Board, pool: &Pool) -> Vec<Kid> {
        if self.done(b, pool) {
            return Vec::new();
        }
        let mut found = self.regular(b, pool);
        let regular = found.len();
        for k in self.shortcuts(b, pool) {
            if !found[..regular].iter().any(|(s, _, _)| *s == k.0) {
                found.push(k);
            }
        }
        found
    }

    /// `_Turn.forced`'s walk: the final positions the legal steps reach, stopped at two.
    fn walk(&mut self, b: &Board, pool: &Pool, path: &mut Vec<Step>, ends: &mut Vec<(Board, Vec<Step>)>) {
        let next = self.legal_next(b, pool);
        if next.is_empty() && !ends.iter().any(|(e, _)| e == b) {
            ends.push((*b, path.clone()));
        }
        for (s, c, p) in next {
            if ends.len() > 1 {
                return;
            }
            path.push(s);
            self.walk(&c, &p, path, ends);
            path.pop();
        }
    }

    /// `_match`'s common path: the legal next step (or shortcut) from `f` to `t` with `die`
    /// (0: not given), or `None` when there is none (an error or a route of several dice).
    fn matched(&mut self, b: &Board, pool: &Pool, f: u8, t: u8, die: u8) -> Option<Kid> {
        if !(1..=25).contains(&f) || t >= f || die > 6 {
            return None;
        }
        let mut dice = [0u8; 4];
        let mut n = 0;
        if t != 0 {
            if pool.as_slice().contains(&(f - t)) {
                dice[0] = f - t;
                n = 1;
            }
        } else {
            let (distinct, k) = pool.distinct(); // larger first: sorted descending
            let bear: Vec<u8> = distinct[..k].iter().copied().filter(|&d| d >= f).collect();
            if die != 0 && bear.contains(&die) {
                dice[0] = die;
                n = 1;
            } else {
                dice[..bear.len()].copy_from_slice(&bear);
                n = bear.len();
            }
        }
        if self.done(b, pool) {
            return None;
        }
        let fits = |(s, _, _): &Kid| s.from == f && s.to == t && dice[..n].contains(&s.die);
        if let Some(k) = self.regular(b, pool).into_iter().find(fits) {
            return Some(k);
        }
        self.shortcuts(b, pool).into_iter().find(fits)
    }
}

/// The analysis of the turn of `board` (the mover's view; not a finished game) with the dice
/// `high` >= `low`, after the steps `done` (from, to, die), as `legal_steps` answers it; `None`
/// when a step given is not one legal next step (the caller takes the pure path). `moves` is
/// cleared and holds the legal moves after.
pub fn analyse<R: Rules>(board: &Board, high: u8, low: u8, done: &[(u8, u8, u8)], moves: &mut Moves)
                         -> Option<Analysis> {
    let used = movegen::generate_with::<R>(board, high, low, moves);
    let ends = moves.list.iter().enumerate().map(|(i, (b, _))| (*b, i)).collect();
    let full = Pool::of(high, low);
    let mut turn = Turn::<R> { full: full.len, used, ends, reach: HashMap::new(), _rules: std::marker::PhantomData };
    let (mut b, mut pool) = (*board, full);
    let mut played = Vec::with_capacity(done.len());
    for &(f, t, die) in done {
        let (s, c, p) = turn.matched(&b, &pool, f, t, die)?;
        played.push(s);
        (b, pool) = (c, p);
    }
    let complete = if turn.done(&b, &pool) { Some(*turn.ends.get(&b)?) } else { None };
    let next = turn.legal_next(&b, &pool).into_iter().map(|(s, _, _)| s).collect();
    let forced = if complete.is_some() || (played.is_empty() && turn.ends.len() > 1) {
        None
    } else {
        let mut ends = Vec::new();
        turn.walk(&b, &pool, &mut Vec::new(), &mut ends);
        if ends.len() == 1 { ends.pop().map(|(_, path)| path) } else { None }
    };
    Some(Analysis { played, board: b, pool, next, complete, forced, used })
}

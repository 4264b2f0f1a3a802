//! Legal move generation (R4-R14 of docs/RULES.md), the same search as
//! `service/tavla/core/rules/movegen.py`, step for step: the same candidates in the same order, so the
//! moves come out in the order the Python core lists them (the wire bytes must be identical).
//!
//! As in Python, the search is written once and a variant's move rules are a trait, [`Rules`]
//! (the hooks of `service/tavla/core/rules/variant.py`: the single-step rule `sources`, `play`,
//! `unplay`, `outside_count`, `home`, the turn filter); [`Backgammon`] implements them for
//! backgammon and tavla, the variants the server installs this generator onto
//! (`Backgammon.compiled_generate`). `generate_with` is monomorphised per variant: no cost.
//!
//! Board: 26 signed counts seen from the side on roll (it moves from 25 towards 0); `b[1..=24]`
//! > 0 its checkers, < 0 the opponent's; `b[25]` its bar; `b[0]` minus the opponent's bar.

pub type Board = [i8; 26];
pub const BAR: usize = 25;

/// One single-die checker move; `to` 0 is off, `from` 25 the bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub from: u8,
    pub to: u8,
    pub die: u8,
    pub hit: bool,
}

/// At most four steps (a double), kept inline: no allocation per move.
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    pub items: [Step; 4],
    pub len: usize,
}

impl Steps {
    const EMPTY: Steps = Steps { items: [Step { from: 0, to: 0, die: 0, hit: false }; 4], len: 0 };

    pub fn as_slice(&self) -> &[Step] {
        &self.items[..self.len]
    }
    fn push(&mut self, s: Step) {
        self.items[self.len] = s;
        self.len += 1;
    }
}

/// A random 64-bit weight per board index (splitmix64), for a hash linear in the counts:
/// hash(board) = sum of count x weight, wrapping. A move changes it by what its steps change
/// (`step_delta`), so a result's hash comes from the steps, without reading the board just
/// written byte by byte (reading it back as words stalls the CPU).
const WEIGHTS: [u64; 26] = {
    let mut t = [0u64; 26];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut i = 0;
    while i < 26 {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        t[i] = z ^ (z >> 31);
        i += 1;
    }
    t
};

fn board_hash(b: &Board) -> u64 {
    b.iter().zip(WEIGHTS).fold(0u64, |h, (&v, w)| h.wrapping_add((v as i64 as u64).wrapping_mul(w)))
}

/// A variant's move rules, as the generator uses them: the Python `Variant` hooks of the same
/// names (`service/tavla/core/rules/variant.py`). Each is written once per variant.
pub trait Rules {
    /// The home board is the mover's points 1..=HOME (R11).
    const HOME: usize;
    /// **The single-step rule**: the points (25 = bar) from which `die` can be played now,
    /// highest first, none above `top`, written into `found`; returns how many.
    fn sources(b: &Board, die: usize, outside: i32, top: usize, found: &mut [u8; 16]) -> usize;
    /// Move one checker from `f` by `die` in place; returns (to, hit), `to` 0 for off.
    fn play(b: &mut Board, f: usize, die: usize) -> (usize, bool);
    /// Undo `play`.
    fn unplay(b: &mut Board, f: usize, t: usize, hit: bool);
    /// The mover's checkers that keep it from bearing off.
    fn outside_count(b: &Board) -> i32;
    /// What one step adds to the board's hash (`board_hash`): what `play` changes, weighted.
    fn step_delta(s: &Step) -> u64;
    /// Whether only the larger die may be played when just one of two can be (R7's last
    /// clause, the Python `turn_filter`'s default).
    const LARGER_DIE: bool = true;
}

/// Backgammon's (and tavla's) rules: R4-R14.
pub struct Backgammon;

impl Rules for Backgammon {
    const HOME: usize = 6;

    /// Python `Backgammon.sources`. At most 15 points hold the mover's checkers, so a fixed
    /// buffer is enough.
    fn sources(b: &Board, die: usize, outside: i32, top: usize, found: &mut [u8; 16]) -> usize {
        if b[BAR] != 0 {
            // R8: bar checkers first; R9: die n enters on point 25 - n
            if b[BAR - die] >= -1 {
                found[0] = BAR as u8;
                return 1;
            }
            return 0;
        }
        // the mover's points 1..=top as bits, then only those are visited, highest first
        let mut occupied = occupied_mask(b) & ((2u32 << top) - 1) & !1;
        let mut n = 0;
        while occupied != 0 {
            let f = 31 - occupied.leading_zeros() as usize;
            occupied &= !(1 << f);
            let ok = if f > die {
                b[f - die] >= -1 // R5: open, own, or a blot
            } else if outside != 0 {
                false // R11: all 15 home before bearing off
            } else if f == die {
                true
            } else {
                // R12: a larger die bears off only from the highest occupied point
                (f + 1..7).all(|h| b[h] <= 0)
            };
            if ok {
                found[n] = f as u8;
                n += 1;
            }
        }
        n
    }

    fn play(b: &mut Board, f: usize, die: usize) -> (usize, bool) {
        b[f] -= 1;
        if f <= die {
            return (0, false);
        }
        let t = f - die;
        if b[t] == -1 {
            // R5, R8: the blot goes to the opponent's bar
            b[t] = 1;
            b[0] -= 1;
            return (t, true);
        }
        b[t] += 1;
        (t, false)
    }

    fn unplay(b: &mut Board, f: usize, t: usize, hit: bool) {
        b[f] += 1;
        if t != 0 {
            if hit {
                b[t] = -1;
                b[0] += 1;
            } else {
                b[t] -= 1;
            }
        }
    }

    /// The mover's checkers on points 7-24 and the bar (R11).
    fn outside_count(b: &Board) -> i32 {
        b[BAR] as i32 + b[7..=24].iter().filter(|&&v| v > 0).map(|&v| v as i32).sum::<i32>()
    }

    /// A checker leaves `from`; it arrives on `to` (not off); a hit turns the opponent's -1
    /// there into our 1 (+2 in all) and puts one on their bar (index 0, -1).
    #[inline(always)]
    fn step_delta(s: &Step) -> u64 {
        let mut d = WEIGHTS[s.from as usize].wrapping_neg();
        if s.to != 0 {
            d = d.wrapping_add(WEIGHTS[s.to as usize]);
        }
        if s.hit {
            d = d.wrapping_add(WEIGHTS[s.to as usize]).wrapping_sub(WEIGHTS[0]);
        }
        d
    }
}

/// The results in insertion order (as a Python dict keeps them), first sequence per board wins.
/// `seen` is an open-addressing table of indexes into `list` plus one (0: empty), kept at
/// most half full, indexed by the top bits of the board's hash; `hashes` runs beside `list`.
pub struct Moves {
    pub list: Vec<(Board, Steps)>,
    hashes: Vec<u64>,
    seen: Vec<u32>,
    /// The hash of the board before the move.
    base: u64,
}

impl Moves {
    pub fn new() -> Self {
        Moves { list: Vec::with_capacity(64), hashes: Vec::with_capacity(64), seen: vec![0; 128], base: 0 }
    }
    /// Empty, keeping the allocations (one Moves serves every call of a thread). Every entry
    /// of the table is in `list`: an empty list means a clean table.
    pub fn clear(&mut self) {
        if !self.list.is_empty() {
            self.list.clear();
            self.hashes.clear();
            self.seen.fill(0);
        }
    }
    /// Add `b`, the board after `steps` (by the rules `R`) from the one `base` is the hash of,
    /// unless it is there.
    fn insert<R: Rules>(&mut self, b: &Board, steps: &Steps) {
        if 2 * (self.list.len() + 1) > self.seen.len() {
            self.grow();
        }
        let h = steps.as_slice().iter().fold(self.base, |h, s| h.wrapping_add(R::step_delta(s)));
        let mask = self.seen.len() - 1;
        let mut i = (h >> (64 - self.seen.len().trailing_zeros())) as usize;
        loop {
            match self.seen[i] {
                0 => {
                    self.list.push((*b, *steps));
                    self.hashes.push(h);
                    self.seen[i] = self.list.len() as u32;
                    return;
                }
                k if self.hashes[k as usize - 1] == h && self.list[k as usize - 1].0 == *b => return,
                _ => i = (i + 1) & mask,
            }
        }
    }
    fn grow(&mut self) {
        let size = self.seen.len() * 2;
        self.seen.clear();
        self.seen.resize(size, 0);
        for (k, &h) in self.hashes.iter().enumerate() {
            let mut i = (h >> (64 - size.trailing_zeros())) as usize;
            while self.seen[i] != 0 {
                i = (i + 1) & (size - 1);
            }
            self.seen[i] = k as u32 + 1;
        }
    }
}

/// Bit p set when `b[p] > 0`: two 16-byte compares (SSE2, in every x86-64 CPU).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn occupied_mask(b: &Board) -> u32 {
    use std::arch::x86_64::{_mm_cmpgt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_setzero_si128};
    // SAFETY: SSE2 is part of x86-64; both loads read 16 bytes inside the 26-byte board
    // (indexes 0..16 and 10..26), unaligned loads.
    unsafe {
        let zero = _mm_setzero_si128();
        let lo = _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_loadu_si128(b.as_ptr().cast()), zero)) as u32;
        let hi = _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_loadu_si128(b[10..].as_ptr().cast()), zero)) as u32;
        lo | hi << 10
    }
}

/// Bit p set when `b[p] > 0`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn occupied_mask(b: &Board) -> u32 {
    b.iter().enumerate().fold(0, |m, (p, &v)| m | ((v > 0) as u32) << p)
}

/// Whether a step from `f` to `t` brings a checker into the home board (points 1..=R::HOME).
#[inline(always)]
fn leaves_outside<R: Rules>(f: usize, t: usize) -> bool {
    f > R::HOME && t <= R::HOME
}

/// All legal plays of `d1`, `d2` (1-6) by backgammon's rules: `generate_with::<Backgammon>`.
pub fn generate(board: &Board, d1: u8, d2: u8, results: &mut Moves) -> u8 {
    generate_with::<Backgammon>(board, d1, d2, results)
}

/// All legal plays of `d1`, `d2` (1-6) by the rules `R`: (dice used, moves). Never empty: with
/// nothing to play the one move is the unchanged board with no steps (R7).
/// `results` is cleared first and holds the moves after.
pub fn generate_with<R: Rules>(board: &Board, d1: u8, d2: u8, results: &mut Moves) -> u8 {
    let (d1, d2) = if d1 < d2 { (d2 as usize, d1 as usize) } else { (d1 as usize, d2 as usize) };
    let mut b = *board;
    let out = R::outside_count(&b);
    if results.seen.len() > 1024 {
        *results = Moves::new(); // after a rare huge answer: do not clear a large table each call
    }
    results.clear();
    results.base = board_hash(board);
    if d1 == d2 {
        let mut steps = Steps::EMPTY;
        return doubles::<R>(&mut b, d1, 4, 24, out, &mut steps, results, 0);
    }
    let mut best = 0;
    let (mut first, mut second) = ([0u8; 16], [0u8; 16]);
    for (da, db) in [(d1, d2), (d2, d1)] {
        let n1 = R::sources(&b, da, out, 24, &mut first);
        for &f in &first[..n1] {
            let f = f as usize;
            let (t, hit) = R::play(&mut b, f, da);
            let out_a = if leaves_outside::<R>(f, t) { out - 1 } else { out };
            let n2 = R::sources(&b, db, out_a, 24, &mut second);
            let s1 = Step { from: f as u8, to: t as u8, die: da as u8, hit };
            if n2 > 0 {
                if best < 2 {
                    best = 2;
                    results.clear();
                }
                for &g in &second[..n2] {
                    let g = g as usize;
                    let (u, hit2) = R::play(&mut b, g, db);
                    let mut steps = Steps::EMPTY;
                    steps.push(s1);
                    steps.push(Step { from: g as u8, to: u as u8, die: db as u8, hit: hit2 });
                    results.insert::<R>(&b, &steps);
                    R::unplay(&mut b, g, u, hit2);
                }
            } else if best < 2 {
                best = 1;
                let mut steps = Steps::EMPTY;
                steps.push(s1);
                results.insert::<R>(&b, &steps);
            }
            R::unplay(&mut b, f, t, hit);
        }
    }
    if best == 1 && R::LARGER_DIE {
        // R7: if only one die can be played it must be the larger one when that is possible
        if results.list.iter().any(|(_, s)| s.items[0].die as usize == d1) {
            // the table indexes the list: rebuild it (rare: only one die could be played)
            let kept: Vec<(Board, Steps)> =
                results.list.iter().filter(|(_, s)| s.items[0].die as usize == d1).copied().collect();
            results.clear();
            for (b, s) in &kept {
                results.insert::<R>(b, s);
            }
        }
    } else if best == 0 {
        results.insert::<R>(board, &Steps::EMPTY);
    }
    best
}

/// Depth-first search of a double (R6): sources never increase, so each set is tried once.
/// Returns the most dice used so far; `results` keeps only plays using that many.
#[allow(clippy::too_many_arguments)]
fn doubles<R: Rules>(b: &mut Board, die: usize, left: u8, top: usize, out: i32, steps: &mut Steps,
                     results: &mut Moves, mut best: u8) -> u8 {
    let mut found = [0u8; 16];
    let n = R::sources(b, die, out, top, &mut found);
    if n == 0 {
        let used = steps.len as u8;
        if used > best {
            results.clear();
            best = used;
        }
        if used == best {
            results.insert::<R>(b, steps);
        }
        return best;
    }
    for &f in &found[..n] {
        let f = f as usize;
        let (t, hit) = R::play(b, f, die);
        steps.push(Step { from: f as u8, to: t as u8, die: die as u8, hit });
        if left == 1 {
            if best < 4 {
                results.clear();
                best = 4;
            }
            results.insert::<R>(b, steps);
        } else {
            let out_next = if leaves_outside::<R>(f, t) { out - 1 } else { out };
            best = doubles::<R>(b, die, left - 1, f.min(24), out_next, steps, results, best);
        }
        steps.len -= 1;
        R::unplay(b, f, t, hit);
    }
    best
}

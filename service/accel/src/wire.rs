//! The `moves` field of a ListLegalMovesResponse in protobuf wire format, byte for byte what
//! `service/tavla/server/convert/wire.py` `moves()` writes (proto3: fields in number order, zero values
//! left out, packed `points`). Field numbers are those of proto/tavla/v1/types.proto; the
//! differential test (tests/accel/test_accel.py) fails if either side changes alone.

use crate::movegen::{Board, Step, BAR};
use crate::notation::{format_steps, MAX_LEN};
use std::mem::MaybeUninit;

pub const FULL: u8 = 0;
pub const BASIC: u8 = 1;
pub const WHITE: u8 = 1; // tavla.v1.Side numbers, also tavla.core.Side
pub const BLACK: u8 = 2;

const CHECKERS: u8 = 15;
// The Match ID of a bare position: money play, centred cube, no dice (server/convert/ids.py).
const MONEY_MATCH_WHITE: &[u8] = b"MAEAAAAAAAAE";
const MONEY_MATCH_BLACK: &[u8] = b"cAkAAAAAAAAE";
// XGID of a bare position (core/ids/xgid.py): black is XGID's bottom player, X, turn 1.
const XGID_PREFIX: &[u8] = b"XGID=";
const XGID_SUFFIX_BLACK: &[u8] = b":0:0:1:00:0:0:0:0:10";
const XGID_SUFFIX_WHITE: &[u8] = b":0:0:-1:00:0:0:0:0:10";
const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// One move entry is at most about 280 bytes (a 48-byte notation, four checker moves, the
/// result); this much room is reserved at the end of the answer before one is written.
const MOVE_MAX: usize = 384;

/// The answer's spare capacity and how much of it is written: writes are indexed (checked
/// against the reserved room), with no capacity check or zeroing per byte.
struct Buf<'a> {
    b: &'a mut [MaybeUninit<u8>],
    n: usize,
}

impl Buf<'_> {
    #[inline(always)]
    fn put(&mut self, v: u8) {
        self.b[self.n].write(v);
        self.n += 1;
    }
    #[inline(always)]
    fn put2(&mut self, a: u8, v: u8) {
        self.b[self.n].write(a);
        self.b[self.n + 1].write(v);
        self.n += 2;
    }
    #[inline(always)]
    fn put_all(&mut self, bytes: &[u8]) {
        let dest = &mut self.b[self.n..self.n + bytes.len()]; // bounds checked here
        // SAFETY: `dest` is `bytes.len()` bytes of the buffer, which `bytes` cannot overlap
        // (the buffer is borrowed mutably).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dest.as_mut_ptr().cast::<u8>(), bytes.len()) };
        self.n += bytes.len();
    }
    /// A varint below 2^14 (every length and pip count written here).
    #[inline(always)]
    fn varint(&mut self, v: usize) {
        if v < 0x80 {
            self.put(v as u8);
        } else {
            self.put2((v as u8 & 0x7F) | 0x80, (v >> 7) as u8);
        }
    }
}

#[inline(always)]
fn varint_len(v: usize) -> usize {
    if v < 0x80 { 1 } else { 2 }
}

/// One side's 25 counts in its own numbering: points 1..24, then its bar.
type Counts = [u8; 25];

/// The counts of the side that moved (the board is in its view).
#[inline(always)]
fn mine(after: &Board) -> Counts {
    let mut c = [0u8; 25];
    for p in 1..=25 {
        c[p - 1] = after[p].max(0) as u8;
    }
    c
}

/// The counts of the other side.
#[inline(always)]
fn theirs(after: &Board) -> Counts {
    let mut c = [0u8; 25];
    for k in 0..25 {
        // the opponent's point k + 1 is index 24 - k; its bar is index 0
        c[k] = (-after[24 - k]).max(0) as u8;
    }
    c
}

/// Computed once per answer from the board before the move: what a move leaves unchanged
/// unless it hits (the other side's counts, Position ID bits and `SideCheckers` totals), and
/// the mover's totals, which each step changes by a known amount.
pub struct Unhit {
    counts: Counts,
    bits: (u64, u32),
    side: SideInfo,
    /// The mover's `SideInfo` before the move.
    mover: SideInfo,
}

impl Unhit {
    pub fn new(before: &Board) -> Self {
        let counts = theirs(before);
        Unhit { counts, bits: id_bits(&counts), side: side_info(&counts), mover: side_info(&mine(before)) }
    }
}

/// What a `SideCheckers` message holds beside the points: bar, borne off, pip count (a bar
/// checker is 25), and the message's length.
#[derive(Clone, Copy)]
struct SideInfo {
    bar: u8,
    off: u8,
    pips: u32,
    len: usize,
}

#[inline(always)]
fn side_info(c: &Counts) -> SideInfo {
    let (mut on_board, mut pips) = (0u32, 0u32);
    for (i, &n) in c.iter().enumerate() {
        on_board += n as u32;
        pips += (i as u32 + 1) * n as u32;
    }
    side_info_of(c[24], CHECKERS - on_board as u8, pips)
}

#[inline(always)]
fn side_info_of(bar: u8, off: u8, pips: u32) -> SideInfo {
    let len = 26 + if bar != 0 { 2 } else { 0 } + if off != 0 { 2 } else { 0 }
        + if pips == 0 { 0 } else if pips < 0x80 { 2 } else { 3 };
    SideInfo { bar, off, pips, len }
}

/// The mover's `SideInfo` after `steps` from the one before: each step takes from - to pips
/// (a bar checker counts 25, off is 0), one to off bears a checker off.
#[inline(always)]
fn mover_info(before: &SideInfo, steps: &[Step], bar: u8) -> SideInfo {
    let (mut pips, mut off) = (before.pips, before.off);
    for s in steps {
        pips -= (s.from - s.to) as u32;
        off += (s.to == 0) as u8;
    }
    side_info_of(bar, off, pips)
}

/// A `SideCheckers` message: points (packed), bar, borne_off, pip_count, zero values left out.
#[inline(always)]
fn side_checkers(c: &Counts, info: &SideInfo, m: &mut Buf) {
    m.put2(0x0a, 24);
    m.put_all(&c[..24]);
    if info.bar != 0 {
        m.put2(0x10, info.bar);
    }
    if info.off != 0 {
        m.put2(0x18, info.off);
    }
    if info.pips != 0 {
        m.put(0x20);
        m.varint(info.pips as usize);
    }
}

/// Position ID bits of two neighbouring points with counts a, b (index a | b << 4): their
/// pattern (a one-bits, a zero, b one-bits, a zero) in the low 32 bits, its width above.
const PAIR_BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let (a, b) = (i as u64 & 15, i as u64 >> 4);
        t[i] = ((1 << a) - 1) | ((1 << b) - 1) << (a + 1) | (a + b + 2) << 32;
        i += 1;
    }
    t
};

/// Position ID bits of one side: per point, n one-bits then a zero-bit, first bit lowest.
/// Returns (bits, bit count); at most 15 + 25 = 40 bits. Two points per step (PAIR_BITS):
/// the positions depend on each other, so fewer steps is what makes this fast.
#[inline(always)]
fn id_bits(c: &Counts) -> (u64, u32) {
    let (mut bits, mut pos) = (0u64, 0u32);
    for k in 0..12 {
        // counts are at most 15: four bits each
        let e = PAIR_BITS[(c[2 * k] | c[2 * k + 1] << 4) as usize];
        bits |= (e & 0xFFFF_FFFF) << pos;
        pos += (e >> 32) as u32;
    }
    let n = c[24];
    bits |= ((1u64 << n) - 1) << pos; // pos <= 40: within 64 bits
    (bits, pos + n as u32 + 1)
}

/// The 14-character Position ID from the two sides' bits (`id_bits`): the side not on roll
/// first, 80 bits little-endian, base64 (10 bytes: 14 characters once the padding is dropped).
#[inline(always)]
fn position_id((a, n): (u64, u32), (b, _): (u64, u32)) -> [u8; 14] {
    let le = a as u128 | (b as u128) << n;
    // the 10 bytes as one big-endian number, then 4 zero bits to make 84 = 14 x 6
    let be = (le.swap_bytes() >> 48) << 4;
    let mut out = [0u8; 14];
    for (i, ch) in out.iter_mut().enumerate() {
        *ch = B64[(be >> (78 - 6 * i) & 63) as usize];
    }
    out
}

/// The 10 bytes of the Position ID of `board` (the side on roll's view): the side not on roll's
/// bits first, 80 bits little-endian (the state's `position` key, `game.rs`).
pub fn position_key(board: &Board) -> [u8; 10] {
    let (theirs, n) = id_bits(&theirs(board));
    let (mine, _) = id_bits(&mine(board));
    let le = theirs as u128 | (mine as u128) << n;
    let mut key = [0u8; 10];
    key.copy_from_slice(&le.to_le_bytes()[..10]);
    key
}

/// XGID's letter for a signed count -15..=15: `-` for none, `A`.. for black's, `a`.. for
/// white's; arithmetic and selects only, so the 26 of a board are done in a few vector steps.
#[inline(always)]
fn xgid_char(v: i8) -> u8 {
    let pos = (b'A' as i8 - 1).wrapping_add(v) as u8;
    let neg = (b'a' as i8 - 1).wrapping_sub(v) as u8;
    if v > 0 { pos } else if v < 0 { neg } else { b'-' }
}

/// The length of a `PositionIds` (field 6 of a `Position`): under 128, a one-byte varint.
#[inline(always)]
fn ids_len(result_side: u8) -> usize {
    let (matchid, suffix) = if result_side == WHITE {
        (MONEY_MATCH_WHITE, XGID_SUFFIX_WHITE)
    } else {
        (MONEY_MATCH_BLACK, XGID_SUFFIX_BLACK)
    };
    16 + 2 + 15 + matchid.len() + 2 + XGID_PREFIX.len() + 26 + suffix.len()
}

/// Field 6 of a `Position`, its `PositionIds`: position_id, gnubg_id (Position ID and money
/// Match ID) and xgid. The XGID board is as black sees it: `after` as it is when black moved,
/// else flipped.
#[inline(always)]
fn ids(after: &Board, mover: u8, result_side: u8, pid: &[u8; 14], m: &mut Buf) {
    let (matchid, suffix) = if result_side == WHITE {
        (MONEY_MATCH_WHITE, XGID_SUFFIX_WHITE)
    } else {
        (MONEY_MATCH_BLACK, XGID_SUFFIX_BLACK)
    };
    m.put2(0x32, ids_len(result_side) as u8);
    m.put2(0x0a, 14);
    m.put_all(pid);
    m.put2(0x12, (14 + 1 + matchid.len()) as u8);
    m.put_all(pid);
    m.put(b':');
    m.put_all(matchid);
    m.put2(0x1a, (XGID_PREFIX.len() + 26 + suffix.len()) as u8);
    m.put_all(XGID_PREFIX);
    let mut chars = [0u8; 26];
    if mover == WHITE {
        for (ch, &v) in chars.iter_mut().zip(after.iter().rev()) {
            *ch = xgid_char(-v);
        }
    } else {
        for (ch, &v) in chars.iter_mut().zip(after) {
            *ch = xgid_char(v);
        }
    }
    m.put_all(&chars);
    m.put_all(suffix);
}

/// The length of a `CheckerMove` field: from_point and die are never 0, to_point is 0 for off.
#[inline(always)]
fn checker_move_len(s: &Step) -> usize {
    6 + if s.to != 0 { 2 } else { 0 } + if s.hit { 2 } else { 0 }
}

/// A `CheckerMove` field: from_point, to_point, die, hit, zero values left out.
#[inline(always)]
fn checker_move(s: &Step, m: &mut Buf) {
    m.put2(0x12, (checker_move_len(s) - 2) as u8);
    m.put2(0x08, s.from);
    if s.to != 0 {
        m.put2(0x10, s.to);
    }
    m.put2(0x18, s.die);
    if s.hit {
        m.put2(0x20, 1);
    }
}

/// Append one repeated `moves` entry (field 1 of the response) for a move of `mover`:
/// notation, checker moves (FULL), and the result with the other side on roll. Every length
/// is known before its message is written, so the entry is written front to back, once.
/// `unhit`: `Unhit::new` of the board before the move.
pub fn write_move(steps: &[Step], after: &Board, mover: u8, view: u8, unhit: &Unhit, out: &mut Vec<u8>) {
    let result_side = if mover == WHITE { BLACK } else { WHITE };
    let mine = mine(after);
    let hit = steps.iter().any(|s| s.hit);
    let theirs_hit = if hit { theirs(after) } else { [0; 25] };
    let theirs = if hit { &theirs_hit } else { &unhit.counts };
    let theirs_bits = if hit { id_bits(theirs) } else { unhit.bits };
    // in the result the mover is not on roll: its bits come first
    let pid = position_id(id_bits(&mine), theirs_bits);
    let mut text = [0u8; MAX_LEN];
    let t = format_steps(steps, &mut text);
    let text_field = if t > 0 { 2 + t } else { 0 };
    out.reserve(MOVE_MAX);
    let mut m = Buf { b: &mut out.spare_capacity_mut()[..MOVE_MAX], n: 0 };
    if view == BASIC {
        let result_len = 2 + 16;
        let head_len = text_field + 2 + result_len;
        m.put(0x0a);
        m.varint(head_len);
        if t > 0 {
            m.put2(0x0a, t as u8);
            m.put_all(&text[..t]);
        }
        m.put2(0x1a, result_len as u8);
        m.put2(0x08, result_side);
        m.put2(0x1a, 14);
        m.put_all(&pid);
    } else {
        let moves_len: usize = steps.iter().map(checker_move_len).sum();
        let (white, black) = if mover == WHITE { (&mine, theirs) } else { (theirs, &mine) };
        let mine_info = mover_info(&unhit.mover, steps, after[BAR] as u8);
        let theirs_info = if hit { side_info(theirs) } else { unhit.side };
        let (wi, bi) = if mover == WHITE { (mine_info, theirs_info) } else { (theirs_info, mine_info) };
        let (lw, lb) = (wi.len, bi.len);
        let board_len = 2 + lw + 2 + lb;
        let result_len = 2 + 2 + board_len + 2 + ids_len(result_side);
        let head_len = text_field + moves_len + 1 + varint_len(result_len) + result_len;
        m.put(0x0a);
        m.varint(head_len);
        if t > 0 {
            m.put2(0x0a, t as u8);
            m.put_all(&text[..t]);
        }
        for s in steps {
            checker_move(s, &mut m);
        }
        m.put(0x1a);
        m.varint(result_len);
        m.put2(0x08, result_side);
        m.put2(0x12, board_len as u8);
        m.put2(0x0a, lw as u8);
        side_checkers(white, &wi, &mut m);
        m.put2(0x12, lb as u8);
        side_checkers(black, &bi, &mut m);
        ids(after, mover, result_side, &pid, &mut m);
    }
    let written = m.n;
    // SAFETY: `m` wrote bytes 0..written of the spare capacity (every write goes through `Buf`,
    // which counts it), and written <= MOVE_MAX <= the capacity reserved above.
    unsafe { out.set_len(out.len() + written) };
}

/// A `Position` message (FULL: side on roll, both sides' checkers, the IDs) of `board` (its
/// side on roll's view) with `on_roll` on roll, byte for byte what `wire.py` `position()`
/// writes: the result `write_move` writes of the empty move that left `board` (flipped) to the
/// other side, cut out of the entry.
pub fn write_position(board: &Board, on_roll: u8, out: &mut Vec<u8>) {
    let mut before = *board;
    before.reverse();
    for v in before.iter_mut() {
        *v = -*v;
    }
    let mover = if on_roll == WHITE { BLACK } else { WHITE };
    out.clear();
    write_move(&[], &before, mover, FULL, &Unhit::new(&before), out);
    // the entry: 0x0a, its length, then (no notation, no checker moves) 0x1a, the result's length, the result
    let mut i = 1 + varint_len(read_varint(&out[1..])) + 1;
    i += varint_len(read_varint(&out[i..]));
    out.drain(..i);
}

fn read_varint(b: &[u8]) -> usize {
    if b[0] < 0x80 { b[0] as usize } else { (b[0] & 0x7F) as usize | (b[1] as usize) << 7 }
}

/// Whether `b` is a board the engine can hold: counts within 15 per side, bars signed right.
/// No early exit: the loop over the 26 counts then compiles to a few vector steps.
pub fn valid_board(b: &Board) -> bool {
    let (mut ok, mut mine, mut theirs) = (true, 0i32, 0i32);
    for &v in b {
        ok &= v.unsigned_abs() <= CHECKERS;
        mine += v.max(0) as i32;
        theirs -= v.min(0) as i32;
    }
    ok && b[BAR] >= 0 && b[0] <= 0 && mine <= CHECKERS as i32 && theirs <= CHECKERS as i32
}

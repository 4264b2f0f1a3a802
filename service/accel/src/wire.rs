//! The `moves` field of a ListLegalMovesResponse in protobuf wire format, byte for byte what
//! `service/tavla/server/wire.py` `moves()` writes (proto3: fields in number order, zero values
//! left out, packed `points`). Field numbers are those of proto/tavla/v1/types.proto; the
//! differential test (tests/test_accel.py) fails if either side changes alone.

use crate::movegen::{Board, Step, BAR};
use crate::notation::format_steps;

pub const FULL: u8 = 0;
pub const BASIC: u8 = 1;
pub const WHITE: u8 = 1; // tavla.v1.Side numbers, also tavla.core.Side
pub const BLACK: u8 = 2;

const CHECKERS: u8 = 15;
// The Match ID of a bare position: money play, centred cube, no dice (server/convert_ids.py).
const MONEY_MATCH_WHITE: &[u8] = b"MAEAAAAAAAAE";
const MONEY_MATCH_BLACK: &[u8] = b"cAkAAAAAAAAE";
// XGID of a bare position (core/xgid.py): black is XGID's bottom player, X, turn 1.
const XGID_PREFIX: &[u8] = b"XGID=";
const XGID_SUFFIX_BLACK: &[u8] = b":0:0:1:00:0:0:0:0:10";
const XGID_SUFFIX_WHITE: &[u8] = b":0:0:-1:00:0:0:0:0:10";
const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn varint(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7F) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A length-delimited field: tag, length, payload.
fn field(tag: u8, payload: &[u8], out: &mut Vec<u8>) {
    out.push(tag);
    varint(payload.len(), out);
    out.extend_from_slice(payload);
}

/// One side's 25 counts in its own numbering: points 1..24, then its bar.
type Counts = [u8; 25];

/// The counts of the side that moved (the board is in its view) and of the other side.
fn counts(after: &Board) -> (Counts, Counts) {
    let (mut mine, mut theirs) = ([0u8; 25], [0u8; 25]);
    for p in 1..=25 {
        mine[p - 1] = after[p].max(0) as u8;
    }
    for k in 0..25 {
        // the opponent's point k + 1 is index 24 - k; its bar is index 0
        theirs[k] = (-after[24 - k]).max(0) as u8;
    }
    (mine, theirs)
}

/// A `SideCheckers` message: points (packed), bar, borne_off, pip_count (a bar checker is 25).
fn side_checkers(c: &Counts, out: &mut Vec<u8>) {
    out.extend_from_slice(&[0x0a, 24]);
    out.extend_from_slice(&c[..24]);
    let bar = c[24];
    let on_board: u8 = c.iter().sum();
    let pips: usize = c.iter().enumerate().map(|(i, &n)| (i + 1) * n as usize).sum();
    if bar != 0 {
        out.extend_from_slice(&[0x10, bar]);
    }
    if on_board < CHECKERS {
        out.extend_from_slice(&[0x18, CHECKERS - on_board]);
    }
    if pips != 0 {
        out.push(0x20);
        varint(pips, out);
    }
}

/// Position ID bits of one side: per point, n one-bits then a zero-bit, first bit lowest.
/// Returns (bits, bit count); at most 15 + 25 = 40 bits.
fn id_bits(c: &Counts) -> (u64, u32) {
    let (mut bits, mut pos) = (0u64, 0u32);
    for &n in c {
        bits |= ((1u64 << n) - 1) << pos; // n <= 15, pos <= 40: within 64 bits
        pos += n as u32 + 1;
    }
    (bits, pos)
}

/// The 14-character Position ID: the side not on roll first, 80 bits little-endian, base64.
fn position_id(not_on_roll: &Counts, on_roll: &Counts) -> [u8; 14] {
    let (a, n) = id_bits(not_on_roll);
    let (b, _) = id_bits(on_roll);
    let bytes = (a as u128 | (b as u128) << n).to_le_bytes();
    let mut out = [0u8; 14];
    // 10 bytes = three full 3-byte groups and one lone byte; the padding characters are dropped
    for (g, chunk) in bytes[..10].chunks(3).enumerate() {
        let v = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for j in 0..4 {
            if g * 4 + j < 14 {
                out[g * 4 + j] = B64[(v >> (18 - 6 * j) & 63) as usize];
            }
        }
    }
    out
}

fn xgid_char(v: i8) -> u8 {
    match v {
        0 => b'-',
        v if v > 0 => b'A' + (v as u8 - 1),
        v => b'a' + ((-v) as u8 - 1),
    }
}

/// Fields 4 and 5 of a `Position`: gnubg_id (Position ID and money Match ID) and xgid.
/// `black_view`: the board as black sees it.
fn ids(black_view: &Board, on_roll: u8, pid: &[u8; 14], out: &mut Vec<u8>) {
    let (matchid, suffix) = if on_roll == WHITE {
        (MONEY_MATCH_WHITE, XGID_SUFFIX_WHITE)
    } else {
        (MONEY_MATCH_BLACK, XGID_SUFFIX_BLACK)
    };
    out.extend_from_slice(&[0x22, (14 + 1 + matchid.len()) as u8]);
    out.extend_from_slice(pid);
    out.push(b':');
    out.extend_from_slice(matchid);
    out.extend_from_slice(&[0x2a, (XGID_PREFIX.len() + 26 + suffix.len()) as u8]);
    out.extend_from_slice(XGID_PREFIX);
    out.extend(black_view.iter().map(|&v| xgid_char(v)));
    out.extend_from_slice(suffix);
}

fn flip(b: &Board) -> Board {
    let mut out = [0i8; 26];
    for i in 0..26 {
        out[i] = -b[25 - i];
    }
    out
}

/// A `CheckerMove`: from_point, to_point, die, hit, zero values left out.
fn checker_move(s: &Step, out: &mut Vec<u8>) {
    let mut msg = [0u8; 8];
    let mut n = 0;
    for (tag, v) in [(0x08, s.from), (0x10, s.to), (0x18, s.die), (0x20, s.hit as u8)] {
        if v != 0 {
            msg[n] = tag;
            msg[n + 1] = v;
            n += 2;
        }
    }
    field(0x12, &msg[..n], out);
}

/// Append one repeated `moves` entry (field 1 of the response) for a move of `mover`:
/// notation, checker moves (FULL), and the result with the other side on roll.
pub fn write_move(steps: &[Step], after: &Board, mover: u8, view: u8, scratch: &mut Scratch,
                  out: &mut Vec<u8>) {
    let result_side = if mover == WHITE { BLACK } else { WHITE };
    let (mine, theirs) = counts(after);
    // in the result the mover is not on roll: its bits come first
    let pid = position_id(&mine, &theirs);
    let Scratch { text, head, result, board, side } = scratch;
    text.clear();
    head.clear();
    result.clear();
    format_steps(steps, text);
    if !text.is_empty() {
        field(0x0a, text, head);
    }
    result.extend_from_slice(&[0x08, result_side]);
    if view == BASIC {
        result.extend_from_slice(&[0x1a, 14]);
        result.extend_from_slice(&pid);
    } else {
        for s in steps {
            checker_move(s, head);
        }
        let (white, black) = if mover == WHITE { (&mine, &theirs) } else { (&theirs, &mine) };
        board.clear();
        for (tag, c) in [(0x0a, white), (0x12, black)] {
            side.clear();
            side_checkers(c, side);
            field(tag, side, board);
        }
        field(0x12, board, result);
        result.extend_from_slice(&[0x1a, 14]);
        result.extend_from_slice(&pid);
        let black_view = if mover == WHITE { flip(after) } else { *after };
        ids(&black_view, result_side, &pid, result);
    }
    field(0x1a, result, head);
    field(0x0a, head, out);
}

/// Buffers reused from move to move: one answer allocates them once.
#[derive(Default)]
pub struct Scratch {
    text: Vec<u8>,
    head: Vec<u8>,
    result: Vec<u8>,
    board: Vec<u8>,
    side: Vec<u8>,
}

/// Whether `b` is a board the engine can hold: counts within 15 per side, bars signed right.
pub fn valid_board(b: &Board) -> bool {
    let (mut mine, mut theirs) = (0i32, 0i32);
    for (i, &v) in b.iter().enumerate() {
        if v.unsigned_abs() > CHECKERS || (i == BAR && v < 0) || (i == 0 && v > 0) {
            return false;
        }
        if v > 0 {
            mine += v as i32;
        } else {
            theirs -= v as i32;
        }
    }
    mine <= CHECKERS as i32 && theirs <= CHECKERS as i32
}

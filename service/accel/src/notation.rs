//! Standard move notation of a step sequence, as `service/tavla/core/notation.py`
//! `format_steps` writes it: `24/18 13/9*`, `bar/22`, `6/off`, `8/5(2)`, `13/7*/6`.
//! Fixed-size buffers throughout (a turn is at most four steps): no allocation per move.

use crate::movegen::Step;

fn name(point: u8, out: &mut Vec<u8>) {
    match point {
        25 => out.extend_from_slice(b"bar"),
        0 => out.extend_from_slice(b"off"),
        p if p >= 10 => out.extend_from_slice(&[b'0' + p / 10, b'0' + p % 10]),
        p => out.push(b'0' + p),
    }
}

/// Append the notation of `steps` (at most 4) to `out`; nothing for the empty move.
pub fn format_steps(steps: &[Step], out: &mut Vec<u8>) {
    // Highest point first, then lowest destination (a stable sort, as Python's `sorted`).
    let mut sorted = [steps.first().copied().unwrap_or(Step { from: 0, to: 0, die: 0, hit: false }); 4];
    let n = steps.len();
    sorted[..n].copy_from_slice(steps);
    sorted[..n].sort_by_key(|s| (std::cmp::Reverse(s.from), s.to));
    // One chain per checker: a step from where an earlier chain ends moves that checker on.
    let mut chains = [[(0u8, false); 5]; 4];
    let mut lens = [0usize; 4];
    let mut count = 0;
    for s in &sorted[..n] {
        match (0..count).find(|&c| chains[c][lens[c] - 1].0 == s.from) {
            Some(c) => {
                chains[c][lens[c]] = (s.to, s.hit);
                lens[c] += 1;
            }
            None => {
                chains[count][0] = (s.from, false);
                chains[count][1] = (s.to, s.hit);
                lens[count] = 2;
                count += 1;
            }
        }
    }
    // Identical chains are grouped with a count, in the order of their first appearance;
    // chains are compared by what is written: the start, the hits and the end.
    let written = |c: usize, i: usize| i == 0 || chains[c][i].1 || i == lens[c] - 1;
    let same = |a: usize, b: usize| {
        let pa = (0..lens[a]).filter(|&i| written(a, i)).map(|i| chains[a][i]);
        let pb = (0..lens[b]).filter(|&i| written(b, i)).map(|i| chains[b][i]);
        pa.eq(pb)
    };
    let mut first = true;
    for c in 0..count {
        if (0..c).any(|d| same(d, c)) {
            continue; // written with the first of its group
        }
        let repeats = (c..count).filter(|&d| same(c, d)).count();
        if !first {
            out.push(b' ');
        }
        first = false;
        for i in (0..lens[c]).filter(|&i| written(c, i)) {
            let (point, hit) = chains[c][i];
            if i > 0 {
                out.push(b'/');
            }
            name(point, out);
            if hit && i > 0 {
                out.push(b'*');
            }
        }
        if repeats > 1 {
            out.extend_from_slice(&[b'(', b'0' + repeats as u8, b')']);
        }
    }
}

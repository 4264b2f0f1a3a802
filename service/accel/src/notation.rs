//! Standard move notation of a step sequence, as `service/tavla/core/rules/notation.py`
//! `format_steps` writes it: `24/18 13/9*`, `bar/22`, `6/off`, `8/5(2)`, `13/7*/6`.
//! Fixed-size buffers throughout (a turn is at most four steps): no allocation per move.

use crate::movegen::Step;

/// The longest notation: four chains such as `bar/22*` and separators, well under this.
pub const MAX_LEN: usize = 48;

/// The name of each point, 0 `off` to 25 `bar`: (bytes, length).
const NAMES: [([u8; 3], u8); 26] = {
    let mut t = [([0u8; 3], 0u8); 26];
    t[0] = (*b"off", 3);
    t[25] = (*b"bar", 3);
    let mut p = 1;
    while p < 25 {
        t[p] = if p >= 10 { ([b'0' + p as u8 / 10, b'0' + p as u8 % 10, 0], 2) } else { ([b'0' + p as u8, 0, 0], 1) };
        p += 1;
    }
    t
};

#[inline]
fn name(point: u8, buf: &mut [u8; MAX_LEN], n: &mut usize) {
    let (bytes, len) = NAMES[point as usize];
    buf[*n..*n + 3].copy_from_slice(&bytes);
    *n += len as usize;
}

/// Write the notation of `steps` (at most 4) into `buf`, returning its length; 0 for the empty
/// move.
pub fn format_steps(steps: &[Step], buf: &mut [u8; MAX_LEN]) -> usize {
    let n = steps.len();
    if n == 0 {
        return 0;
    }
    if n <= 2 {
        return one_or_two(steps, buf);
    }
    // Highest point first, then lowest destination (a stable sort, as Python's `sorted`).
    let mut sorted = [steps[0]; 4];
    sorted[..n].copy_from_slice(steps);
    for i in 1..n {
        // insertion sort: stable, and at most four items
        let s = sorted[i];
        let mut j = i;
        while j > 0 && (sorted[j - 1].from < s.from || (sorted[j - 1].from == s.from && sorted[j - 1].to > s.to)) {
            sorted[j] = sorted[j - 1];
            j -= 1;
        }
        sorted[j] = s;
    }
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
    // chains are compared by what is written: the start, the hits and the end. The key packs
    // those (6 bits each, never zero, at most five), so comparing chains is comparing keys.
    let mut keys = [0u64; 4];
    for c in 0..count {
        let mut key = chains[c][0].0 as u64 + 1;
        for (i, &(point, hit)) in chains[c][..lens[c]].iter().enumerate().skip(1) {
            if hit || i == lens[c] - 1 {
                key = key << 6 | (point as u64 + 1) << 1 | hit as u64;
            }
        }
        keys[c] = key;
    }
    let mut len = 0;
    for c in 0..count {
        if keys[..c].contains(&keys[c]) {
            continue; // written with the first of its group
        }
        let repeats = keys[c..count].iter().filter(|&&k| k == keys[c]).count();
        if len > 0 {
            buf[len] = b' ';
            len += 1;
        }
        name(chains[c][0].0, buf, &mut len);
        for (i, &(point, hit)) in chains[c][..lens[c]].iter().enumerate().skip(1) {
            if hit || i == lens[c] - 1 {
                hop(&Step { from: 0, to: point, die: 0, hit }, buf, &mut len);
            }
        }
        if repeats > 1 {
            buf[len..len + 3].copy_from_slice(&[b'(', b'0' + repeats as u8, b')']);
            len += 3;
        }
    }
    len
}

/// `from/to` with `*` for a hit.
#[inline(always)]
fn hop(s: &Step, buf: &mut [u8; MAX_LEN], len: &mut usize) {
    buf[*len] = b'/';
    *len += 1;
    name(s.to, buf, len);
    if s.hit {
        buf[*len] = b'*';
        *len += 1;
    }
}

/// `format_steps` of one or two steps (every roll but a double), as the general case writes
/// them: one checker moving twice is one chain, its middle point written only for a hit; two
/// identical steps are grouped.
fn one_or_two(steps: &[Step], buf: &mut [u8; MAX_LEN]) -> usize {
    let mut len = 0;
    let a = steps[0];
    if steps.len() == 1 {
        name(a.from, buf, &mut len);
        hop(&a, buf, &mut len);
        return len;
    }
    let b = steps[1];
    // the highest point first, then the lowest destination; equal keys keep their order
    let (a, b) = if a.from > b.from || (a.from == b.from && a.to <= b.to) { (a, b) } else { (b, a) };
    name(a.from, buf, &mut len);
    if b.from == a.to {
        if a.hit {
            hop(&a, buf, &mut len);
        }
        hop(&b, buf, &mut len);
    } else if a.from == b.from && a.to == b.to && a.hit == b.hit {
        hop(&a, buf, &mut len);
        buf[len..len + 3].copy_from_slice(b"(2)");
        len += 3;
    } else {
        hop(&a, buf, &mut len);
        buf[len] = b' ';
        len += 1;
        name(b.from, buf, &mut len);
        hop(&b, buf, &mut len);
    }
    len
}

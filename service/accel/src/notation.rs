//! Standard move notation of a step sequence, as `service/tavla/core/notation.py`
//! `format_steps` writes it: `24/18 13/9*`, `bar/22`, `6/off`, `8/5(2)`, `13/7*/6`.

use crate::movegen::Step;

fn name(point: u8, out: &mut Vec<u8>) {
    match point {
        25 => out.extend_from_slice(b"bar"),
        0 => out.extend_from_slice(b"off"),
        p => out.extend_from_slice(p.to_string().as_bytes()),
    }
}

/// Append the notation of `steps` to `out` (nothing for the empty move).
pub fn format_steps(steps: &[Step], out: &mut Vec<u8>) {
    // Highest point first, then lowest destination (a stable sort, as Python's `sorted`).
    let mut sorted: Vec<Step> = steps.to_vec();
    sorted.sort_by_key(|s| (std::cmp::Reverse(s.from), s.to));
    // One chain per checker: a step from where an earlier chain ends moves that checker on.
    let mut chains: Vec<Vec<(u8, bool)>> = Vec::with_capacity(4);
    for s in &sorted {
        match chains.iter_mut().find(|c| c.last().map(|e| e.0) == Some(s.from)) {
            Some(chain) => chain.push((s.to, s.hit)),
            None => chains.push(vec![(s.from, false), (s.to, s.hit)]),
        }
    }
    // An intermediate point is written only where it hits.
    let texts: Vec<Vec<u8>> = chains
        .iter()
        .map(|chain| {
            let mut text = Vec::with_capacity(16);
            name(chain[0].0, &mut text);
            for (i, &(point, hit)) in chain.iter().enumerate().skip(1) {
                if hit || i == chain.len() - 1 {
                    text.push(b'/');
                    name(point, &mut text);
                    if hit {
                        text.push(b'*');
                    }
                }
            }
            text
        })
        .collect();
    // Identical chains grouped with a count, in the order of their first appearance.
    let mut grouped: Vec<(&Vec<u8>, usize)> = Vec::with_capacity(4);
    for text in &texts {
        match grouped.iter_mut().find(|g| g.0 == text) {
            Some(g) => g.1 += 1,
            None => grouped.push((text, 1)),
        }
    }
    for (i, (text, n)) in grouped.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(text);
        if *n > 1 {
            out.extend_from_slice(format!("({n})").as_bytes());
        }
    }
}

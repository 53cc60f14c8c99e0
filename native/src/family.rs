//! The Tabla family's stage generator: every legal end position of one stage of dice, each once, after the
//! maximisation rules (most dice used; the larger die when only one of two can be played; a play that ends the
//! game is complete), with the steps of each. It is the plain definition of `referee/games/tabla_family/_movegen.py`
//! (`Stage.moves`, `_two_dice`, `_equal_dice`: the same steps kept for each end), on the same packed boards: 4 bits a point in the mover's numbering, nibble 0 = borne off,
//! nibbles 1..24 = the points, nibble 25 = the bar. Tabla's hits are kept beside the board as a bitmask of points
//! (a nibble-mask: bit 4p, the blot on p was hit), which Python reads as bit `104 + 4p` of the end position.

use rustc_hash::FxHashMap as HashMap;

const HOME_SHIFT: u32 = 28;
const BAR_SHIFT: u32 = 100;
const BAR_BIT: u128 = 1 << BAR_SHIFT;
/// Bit 4p for every nibble p in `first..=last`.
pub const fn nibble_bits(first: u32, last: u32) -> u128 {
    let mut bits = 0;
    let mut p = first;
    while p <= last {
        bits |= 1 << (p << 2);
        p += 1;
    }
    bits
}

/// Bit 0 of every nibble 0..25.
const LOW_BITS: u128 = nibble_bits(0, 25);
/// Bit 4p for the points 1..24.
const POINT_BITS: u128 = nibble_bits(1, 24);
/// Bit 4p for the points and the bar, 1..25.
const SOURCE_NIBBLES: u128 = nibble_bits(1, 25);
/// Bit 4p for the home points 1..6.
const HOME_NIBBLES: u128 = nibble_bits(1, 6);

/// When a board ends the game (a play that does so is complete and stops there).
#[derive(Clone, Copy)]
pub enum Terminal {
    /// Nothing ends the game within the stage (a generator asked without a rule).
    Never,
    /// The 15th checker is off.
    AllOff,
    /// Tapa with the mother in reach: all off, or the opponent's mother pinned (the game is won unless the
    /// mover's own mother is still on its start, or the mover's own mother is pinned too: both mothers).
    Mother { my_mother_pinned: bool },
}

impl Terminal {
    fn ends(self, board: u128) -> bool {
        match self {
            Terminal::Never => false,
            _ if board & 15 == 15 => true,
            Terminal::AllOff => false,
            Terminal::Mother { my_mother_pinned } => {
                (board >> 4) & 15 != 0 && ((board >> 96) & 15 == 0 || my_mother_pinned)
            }
        }
    }
}

/// The constant facts of one stage (see `Stage` in `_movegen.py`).
pub struct Stage {
    pub dice: Vec<u32>,
    pub singles: u128,
    pub can_bear_off: bool,
    pub terminal: Terminal,
    pub track_hits: bool,
    movable: [u128; 7],
    bear_sources: u128,
}

/// A position within a stage: the board, and the points hit so far (Tabla; bit 4p for point p).
pub type Position = (u128, u128);

/// One step: (from, to, die, hit); to 0 is off.
pub type Step = (u32, u32, u32, bool);

/// The steps of a play: at most four, kept inline.
#[derive(Clone, Copy, Default, PartialEq, Debug)]
pub struct Steps {
    steps: [Step; 4],
    len: u8,
}

impl Steps {
    fn with(mut self, step: Step) -> Steps {
        self.steps[self.len as usize] = step;
        self.len += 1;
        self
    }

    fn len(&self) -> usize {
        self.len as usize
    }

    /// The steps, first first.
    pub fn as_slice(&self) -> &[Step] {
        &self.steps[..self.len()]
    }
}

/// Plays in the order they were found, each end position once with its steps (`dict` order in Python).
#[derive(Default)]
pub struct Found {
    pub plays: Vec<(Position, Steps)>,
    index: HashMap<Position, usize>,
}

impl Found {
    fn contains(&self, end: &Position) -> bool {
        self.index.contains_key(end)
    }

    /// Keep the first steps found for an end (`if end not in plays: plays[end] = steps`).
    fn first(&mut self, end: Position, steps: Steps) {
        if !self.index.contains_key(&end) {
            self.index.insert(end, self.plays.len());
            self.plays.push((end, steps));
        }
    }

    /// Keep the shorter steps for an end (`_keep_shorter`).
    fn shorter(&mut self, end: Position, steps: Steps) {
        match self.index.get(&end) {
            Some(&k) if steps.len() < self.plays[k].1.len() => self.plays[k].1 = steps,
            Some(_) => {}
            None => self.first(end, steps),
        }
    }

    fn is_empty(&self) -> bool {
        self.plays.is_empty()
    }
}

fn occupied(board: u128) -> u128 {
    let mut b = board;
    b |= b >> 1;
    b |= b >> 2;
    b & LOW_BITS
}

impl Stage {
    pub fn new(
        dice: Vec<u32>,
        closed: u128,
        frozen: u128,
        singles: u128,
        can_bear_off: bool,
        terminal: Terminal,
        track_hits: bool,
    ) -> Stage {
        let open_points = !closed & POINT_BITS;
        let sources = if frozen != 0 { !frozen & SOURCE_NIBBLES } else { SOURCE_NIBBLES };
        let mut movable = [0u128; 7];
        for &die in &dice {
            movable[die as usize] = (open_points << (die << 2)) & sources;
        }
        let bear_sources = if frozen != 0 { sources & HOME_NIBBLES } else { HOME_NIBBLES };
        Stage { dice, singles, can_bear_off, terminal, track_hits, movable, bear_sources }
    }

    /// Every single step with `die` from `position`, with the step, in `Stage.moves`' order.
    fn steps(&self, (board, hits): Position, die: u32, out: &mut Vec<(Step, Position)>) {
        out.clear();
        let occ = occupied(board);
        let mut cand = occ & self.movable[die as usize];
        if occ & BAR_BIT != 0 {
            cand &= BAR_BIT; // checkers on the bar enter first
        }
        while cand != 0 {
            let low = cand & cand.wrapping_neg();
            cand ^= low;
            let src = low.trailing_zeros() >> 2;
            let dst = src - die;
            let end = board - low + (1u128 << (dst << 2));
            let lone = (self.singles >> (dst << 2)) & 1 != 0 && (occ >> (dst << 2)) & 1 == 0;
            if lone && !self.track_hits {
                out.push(((src, dst, die, true), (end, hits))); // Tapa: landing on the lone checker pins it
            } else if lone && (hits >> (dst << 2)) & 1 == 0 {
                // Tabla: a blot is hit once, then it is on the bar
                out.push(((src, dst, die, true), (end, hits | 1u128 << (dst << 2))));
            } else {
                out.push(((src, dst, die, false), (end, hits)));
            }
        }
        if self.can_bear_off && board >> HOME_SHIFT == 0 {
            let src = die;
            if (board >> (src << 2)) & 15 != 0 && (self.bear_sources >> (src << 2)) & 1 != 0 {
                out.push(((src, 0, die, false), (board - (1u128 << (src << 2)) + 1, hits)));
            }
            // A die larger than the highest occupied point bears off from that point.
            let top = 128 - (occ >> 4).leading_zeros();
            if top != 0 {
                let src = ((top - 1) >> 2) + 1;
                if src < die && (self.bear_sources >> (src << 2)) & 1 != 0 {
                    out.push(((src, 0, die, false), (board - (1u128 << (src << 2)) + 1, hits)));
                }
            }
        }
    }

    fn two_dice_plays(&self, start: Position, high: u32, low: u32) -> (Found, u32) {
        let mut full = Found::default();
        let mut only = [Found::default(), Found::default()];
        let (mut first_steps, mut second_steps) = (Vec::new(), Vec::new());
        for (k, (first, second)) in [(high, low), (low, high)].into_iter().enumerate() {
            self.steps(start, first, &mut first_steps);
            for &(step1, one) in &first_steps {
                let one_step = Steps::default().with(step1);
                if self.terminal.ends(one.0) {
                    full.shorter(one, one_step);
                    continue;
                }
                self.steps(one, second, &mut second_steps);
                if second_steps.is_empty() {
                    only[k].first(one, one_step);
                }
                for &(step2, two) in &second_steps {
                    full.first(two, one_step.with(step2));
                }
            }
        }
        if !full.is_empty() {
            return (full, 2);
        }
        let [high_only, low_only] = only;
        if !high_only.is_empty() {
            return (high_only, 1);
        }
        let used = if low_only.is_empty() { 0 } else { 1 };
        (low_only, used)
    }

    fn equal_dice_plays(&self, start: Position, die: u32, n: u32) -> (Found, u32) {
        let mut frontier = Found::default();
        frontier.first(start, Steps::default());
        let mut finished = Found::default();
        let mut depth = 0;
        let mut steps = Vec::new();
        for _ in 0..n {
            let mut layer = Found::default();
            for (position, before) in &frontier.plays {
                self.steps(*position, die, &mut steps);
                for &(step, end) in &steps {
                    let chain = before.with(step);
                    if self.terminal.ends(end.0) {
                        finished.shorter(end, chain);
                    } else if !layer.contains(&end) {
                        layer.first(end, chain);
                    }
                }
            }
            if layer.is_empty() {
                break;
            }
            frontier = layer;
            depth += 1;
        }
        if !finished.is_empty() {
            if depth == n {
                for (end, chain) in frontier.plays {
                    finished.first(end, chain);
                }
            }
            return (finished, n);
        }
        if depth == 0 {
            return (Found::default(), 0);
        }
        (frontier, depth)
    }

    /// Every legal play of the stage from `board` with its steps (`Stage.plays`: the same steps for each end, in
    /// the same order), and the dice they use.
    pub fn plays(&self, board: Position) -> (Found, u32) {
        let dice = &self.dice;
        if dice.len() == 2 && dice[0] != dice[1] {
            self.two_dice_plays(board, dice[0], dice[1])
        } else {
            self.equal_dice_plays(board, dice[0], dice.len() as u32)
        }
    }

    /// The end positions of every legal play of the stage from `board`, each once, and the dice they use.
    pub fn ends(&self, board: Position) -> (Vec<Position>, u32) {
        let (found, used) = self.plays(board);
        (found.plays.into_iter().map(|(end, _)| end).collect(), used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn pack(points: &[(u32, u128)]) -> u128 {
        points.iter().map(|&(p, n)| n << (p << 2)).sum()
    }

    #[test]
    fn the_opening_six_five_of_tabla() {
        let board = pack(&[(24, 2), (13, 5), (8, 3), (6, 5)]);
        let stage = Stage::new(vec![6, 5], 0, 0, 0, true, Terminal::AllOff, true);
        let (ends, used) = stage.ends((board, 0));
        assert_eq!(used, 2);
        assert!(ends.contains(&(pack(&[(24, 1), (13, 6), (8, 3), (6, 5)]), 0))); // 24/13
        assert_eq!(ends.iter().collect::<HashSet<_>>().len(), ends.len());
    }

    #[test]
    fn a_closed_point_leaves_one_order() {
        // the last checker on 7 with 6 and 5, point 2 closed: 7/1 with the 6, then 1/off with the 5 (7/2 is closed)
        let board = pack(&[(7, 1), (0, 14)]);
        let stage = Stage::new(vec![6, 5], 1u128 << 8, 0, 0, true, Terminal::AllOff, false);
        let (ends, used) = stage.ends((board, 0));
        assert_eq!((ends, used), (vec![(pack(&[(0, 15)]), 0)], 2));
        // with 1 closed too, nothing moves
        let stage = Stage::new(vec![6, 5], (1u128 << 8) | (1u128 << 4), 0, 0, true, Terminal::AllOff, false);
        assert_eq!(stage.ends((board, 0)), (vec![], 0));
    }
}

//! The Tabla family's stage generator: every legal end position of one stage of dice, each once, after the
//! maximisation rules (most dice used; the larger die when only one of two can be played; a play that ends the
//! game is complete), with the steps of each (`Stage::plays`) or without them (`Stage::ends_into`, what the
//! engines and playouts need). It is the plain definition of `referee/games/tabla_family/_movegen.py`
//! (`Stage.moves`, `_two_dice`, `_equal_dice`: the same steps kept for each end), on the same packed boards: 4
//! bits a point in the mover's numbering, nibble 0 = borne off, nibbles 1..24 = the points, nibble 25 = the bar.
//! Tabla's hits ride above the board in one 128-bit position (bit 103 + p: the blot on p was hit), ordered like
//! the Python ints that carry them as bit `104 + 4p`.

use rustc_hash::FxHashMap as HashMap;

const HOME_SHIFT: u32 = 28;
/// The bits of a position that hold its board (26 nibbles); the points hit are above them.
pub const BOARD_BITS: u32 = 104;
/// Bit `HIT_BASE + p` of a position says the blot on point p was hit.
const HIT_BASE: u32 = BOARD_BITS - 1;
const BAR_SHIFT: u32 = 100;
/// The bar's point number: a step from any point is from a point up to it.
const BAR: u32 = 25;
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

/// `NIBBLE[p]`: bit 4p, the low bit of point p's nibble.
const NIBBLE: [u128; 26] = {
    let mut table = [0; 26];
    let mut p = 0;
    while p < 26 {
        table[p] = 1 << (4 * p);
        p += 1;
    }
    table
};
/// `HIT[p]`: the bit of a position saying the blot on point p was hit (p in 1..24).
const HIT: [u128; 25] = {
    let mut table = [0; 25];
    let mut p = 1;
    while p < 25 {
        table[p] = 1 << (HIT_BASE as usize + p);
        p += 1;
    }
    table
};
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
#[derive(Clone, Copy)]
pub struct Stage {
    dice: [u32; 4],
    dice_count: usize,
    pub singles: u128,
    pub can_bear_off: bool,
    pub terminal: Terminal,
    pub track_hits: bool,
    /// The points a checker may land on (nibble bits).
    open_points: u128,
    /// The points and the bar a checker may leave (nibble bits).
    sources: u128,
    bear_sources: u128,
}

/// A position within a stage: the board in bits 0..104 and, above it, the points hit so far (Tabla; bit
/// 103 + p for point p). Positions order like the Python ints `hits << 104 | board` whose hits are nibble-masks.
pub type Position = u128;

/// The board of a position, without its hits.
pub const BOARD_MASK: u128 = (1 << BOARD_BITS) - 1;

/// The points hit in a position as a nibble-mask (bit 4p for point p).
pub fn hit_points(position: Position) -> u128 {
    let mut hits = 0u128;
    let mut rest = position >> BOARD_BITS;
    while rest != 0 {
        hits |= 1 << ((rest.trailing_zeros() + 1) << 2);
        rest &= rest - 1;
    }
    hits
}

/// A position from a board and the points hit as a nibble-mask.
pub fn position(board: u128, hits: u128) -> Position {
    let mut packed = 0u128;
    let mut rest = hits & POINT_BITS;
    while rest != 0 {
        packed |= 1 << ((rest.trailing_zeros() >> 2) - 1);
        rest &= rest - 1;
    }
    packed << BOARD_BITS | (board & BOARD_MASK)
}

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
    /// The steps of the play that ends in `end`, if one does.
    pub fn steps_of(&self, end: &Position) -> Option<&Steps> {
        self.index.get(end).map(|&at| &self.plays[at].1)
    }

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

/// Bit 4p for every non-empty nibble.
pub fn occupied(board: u128) -> u128 {
    let mut b = board;
    b |= b >> 1;
    b |= b >> 2;
    b & LOW_BITS
}

impl Stage {
    /// A stage of one to four dice (two different ones, larger first, or one die repeated).
    pub fn new(
        dice: &[u32],
        closed: u128,
        frozen: u128,
        singles: u128,
        can_bear_off: bool,
        terminal: Terminal,
        track_hits: bool,
    ) -> Stage {
        let open_points = !closed & POINT_BITS;
        let sources = if frozen != 0 { !frozen & SOURCE_NIBBLES } else { SOURCE_NIBBLES };
        let mut values = [0; 4];
        values[..dice.len()].copy_from_slice(dice);
        let bear_sources = if frozen != 0 { sources & HOME_NIBBLES } else { HOME_NIBBLES };
        Stage {
            dice: values,
            dice_count: dice.len(),
            singles,
            can_bear_off,
            terminal,
            track_hits,
            open_points,
            sources,
            bear_sources,
        }
    }

    /// The stage's dice.
    pub fn dice(&self) -> &[u32] {
        &self.dice[..self.dice_count]
    }

    /// Every single step with `die` from `position`, with the step, in `Stage.moves`' order.
    fn steps(&self, position: Position, die: u32, out: &mut Vec<(Step, Position)>) {
        out.clear();
        self.each_step(position, die, BAR, |step, end| out.push((step, end)));
    }

    /// Visit every single step with `die` from `position` from a point up to `upto` (25: any) and the position it
    /// makes, in `Stage.moves`' order.
    #[inline]
    fn each_step(&self, board: Position, die: u32, upto: u32, mut visit: impl FnMut(Step, Position)) {
        let occ = occupied(board);
        let movable = (self.open_points << (die << 2)) & self.sources; // sources whose step lands on an open point
        let mut cand = occ & movable & (NIBBLE[upto as usize] * 2 - 1);
        if occ & BAR_BIT != 0 {
            cand &= BAR_BIT; // checkers on the bar enter first
        }
        while cand != 0 {
            let low = cand & cand.wrapping_neg();
            cand ^= low;
            let src = low.trailing_zeros() >> 2;
            let dst = src - die;
            let dst_bit = NIBBLE[dst as usize];
            let end = board - low + dst_bit;
            let lone = self.singles & dst_bit != 0 && occ & dst_bit == 0;
            if lone && !self.track_hits {
                visit((src, dst, die, true), end); // Tapa: landing on the lone checker pins it
            } else if lone && board & HIT[dst as usize] == 0 {
                // Tabla: a blot is hit once, then it is on the bar
                visit((src, dst, die, true), end | HIT[dst as usize]);
            } else {
                visit((src, dst, die, false), end);
            }
        }
        if self.can_bear_off && (board & BOARD_MASK) >> HOME_SHIFT == 0 {
            let src_bit = NIBBLE[die as usize];
            if occ & src_bit & self.bear_sources != 0 && die <= upto {
                visit((die, 0, die, false), board - src_bit + 1);
            }
            // A die larger than the highest occupied point bears off from that point.
            let top = 128 - (occ >> 4).leading_zeros();
            if top != 0 {
                let src = ((top - 1) >> 2) + 1;
                let src_bit = NIBBLE[src as usize];
                if src < die && src <= upto && self.bear_sources & src_bit != 0 {
                    visit((src, 0, die, false), board - src_bit + 1);
                }
            }
        }
    }

    /// Whether the stage has a legal play from `board`: some die has a step (every play starts with one, and a
    /// first step starts a play of at least one die).
    pub fn has_play(&self, board: Position) -> bool {
        let dice = self.dice();
        let distinct = if dice.len() == 2 && dice[0] != dice[1] { 2 } else { 1 };
        dice[..distinct].iter().any(|&die| {
            let mut any = false;
            self.each_step(board, die, BAR, |_, _| any = true);
            any
        })
    }

    /// The end of a play of random single steps (the playouts' `steps` policy; `random_play` in `_movegen.py`):
    /// of two different dice, the order first (`draw(2)`: 0 the larger first), then for each die one of its steps
    /// (`draw(n)` of the n in `each_step`'s order), stopping when a step ends the game. A walk that uses every die,
    /// or ends the game, is a legal play (it uses the most dice there are); None when a die finds no step on the
    /// way, since another walk might have used them all: the caller then draws among the listed plays.
    pub fn random_play(
        &self,
        board: Position,
        buffers: &mut Buffers,
        mut draw: impl FnMut(u64) -> u64,
    ) -> Option<Position> {
        let dice = self.dice();
        let mut order = self.dice;
        if dice.len() == 2 && dice[0] != dice[1] && draw(2) == 1 {
            order.swap(0, 1);
        }
        let mut position = board;
        let ends = &mut buffers.ones;
        for &die in &order[..dice.len()] {
            ends.clear();
            self.each_step(position, die, BAR, |_, end| ends.push(end));
            if ends.is_empty() {
                return None;
            }
            position = ends[draw(ends.len() as u64) as usize];
            if self.terminal.ends(position) {
                break;
            }
        }
        Some(position)
    }

    fn two_dice_plays(&self, start: Position, high: u32, low: u32) -> (Found, u32) {
        let mut full = Found::default();
        let mut only = [Found::default(), Found::default()];
        let (mut first_steps, mut second_steps) = (Vec::new(), Vec::new());
        for (k, (first, second)) in [(high, low), (low, high)].into_iter().enumerate() {
            self.steps(start, first, &mut first_steps);
            for &(step1, one) in &first_steps {
                let one_step = Steps::default().with(step1);
                if self.terminal.ends(one) {
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
                    if self.terminal.ends(end) {
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
        let dice = self.dice();
        if dice.len() == 2 && dice[0] != dice[1] {
            self.two_dice_plays(board, dice[0], dice[1])
        } else {
            self.equal_dice_plays(board, dice[0], dice.len() as u32)
        }
    }

    /// The end positions of every legal play of the stage from `board`, each once, in the engines' order (of
    /// `hits << 104 | board`), into `out`, and the dice they use: the ends of `plays` without their steps.
    pub fn ends_into(&self, board: Position, buffers: &mut Buffers, out: &mut Vec<Position>) -> u32 {
        out.clear();
        let dice = self.dice();
        if dice.len() == 2 && dice[0] != dice[1] {
            let used = self.two_dice_ends(board, dice[0], dice[1], buffers, out);
            sort_unique(out, &mut buffers.seen);
            return used;
        }
        if let Terminal::Mother { .. } = self.terminal {
            let used = self.equal_dice_ends(board, dice[0], dice.len() as u32, buffers, out);
            sort_unique(out, &mut buffers.seen);
            return used;
        }
        let used = self.canonical_ends(board, dice[0], dice.len(), buffers, out);
        out.sort_unstable();
        used
    }

    /// The ends of equal dice, each once, when only the 15th checker off ends the game: the steps of a play can
    /// always be taken from the highest source down (the bar first, checkers outside home before bearing off, a
    /// bear-off with a larger die from the highest point), so walking only such orders reaches every end, and
    /// each by one order alone (a multiset of sources makes one end, and no two make the same), with nothing to
    /// drop. Tapa's mother rule (a play is complete once it pins the mother) needs every order: `equal_dice_ends`.
    fn canonical_ends(&self, start: Position, die: u32, n: usize, buffers: &mut Buffers, out: &mut Vec<Position>) -> u32 {
        let layers = &mut buffers.layers;
        for layer in layers.iter_mut() {
            layer.clear();
        }
        self.walk(start, die, BAR, 0, n, layers, out);
        let depth = layers[..n].iter().take_while(|layer| !layer.is_empty()).count();
        if !out.is_empty() {
            if depth == n {
                out.extend_from_slice(&layers[n - 1]);
            }
            return n as u32;
        }
        if depth > 0 {
            out.extend_from_slice(&layers[depth - 1]);
        }
        depth as u32
    }

    /// Every step with `die` from `board` from a point up to `upto`, and on from its end from points up to its
    /// source, to `n` steps: `layers[d]` gets the positions after d + 1 steps, `finished` the plays that end the
    /// game.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        board: Position,
        die: u32,
        upto: u32,
        depth: usize,
        n: usize,
        layers: &mut [Vec<Position>; 4],
        finished: &mut Vec<Position>,
    ) {
        self.each_step(board, die, upto, |(src, ..), end| {
            if self.terminal.ends(end) {
                finished.push(end);
            } else {
                layers[depth].push(end);
                if depth + 1 < n {
                    self.walk(end, die, src, depth + 1, n, layers, finished);
                }
            }
        });
    }

    fn two_dice_ends(&self, start: Position, high: u32, low: u32, buffers: &mut Buffers, out: &mut Vec<Position>) -> u32 {
        let Buffers { ones, only, .. } = buffers;
        only[0].clear();
        only[1].clear();
        for (k, (first, second)) in [(high, low), (low, high)].into_iter().enumerate() {
            ones.clear();
            self.each_step(start, first, BAR, |_, one| ones.push(one));
            for &one in ones.iter() {
                if self.terminal.ends(one) {
                    out.push(one);
                    continue;
                }
                let before = out.len();
                self.each_step(one, second, BAR, |_, two| out.push(two));
                if out.len() == before {
                    only[k].push(one);
                }
            }
        }
        if !out.is_empty() {
            return 2;
        }
        let single = if only[0].is_empty() { &only[1] } else { &only[0] };
        out.extend_from_slice(single);
        u32::from(!single.is_empty())
    }

    fn equal_dice_ends(&self, start: Position, die: u32, n: u32, buffers: &mut Buffers, out: &mut Vec<Position>) -> u32 {
        let Buffers { ones: frontier, layer, seen, .. } = buffers;
        frontier.clear();
        frontier.push(start);
        let mut depth = 0;
        for _ in 0..n {
            layer.clear();
            seen.clear();
            for &position in frontier.iter() {
                self.each_step(position, die, BAR, |_, end| {
                    if self.terminal.ends(end) {
                        out.push(end); // finished plays
                    } else if seen.insert(end) {
                        layer.push(end);
                    }
                });
            }
            if layer.is_empty() {
                break;
            }
            std::mem::swap(frontier, layer);
            depth += 1;
        }
        if !out.is_empty() {
            if depth == n {
                out.extend_from_slice(frontier);
            }
            return n;
        }
        if depth > 0 {
            out.extend_from_slice(frontier);
        }
        depth
    }
}

/// Reusable buffers for `Stage::ends_into` (scratch space: a copy starts empty).
#[derive(Default)]
pub struct Buffers {
    layers: [Vec<Position>; 4],
    ones: Vec<Position>,
    layer: Vec<Position>,
    only: [Vec<Position>; 2],
    seen: Seen,
}

impl Clone for Buffers {
    fn clone(&self) -> Buffers {
        Buffers::default()
    }
}

/// Sort positions in the engines' order and drop repeats.
fn sort_unique(positions: &mut Vec<Position>, seen: &mut Seen) {
    seen.clear();
    positions.retain(|&position| seen.insert(position));
    positions.sort_unstable();
}

/// A set of keys that is emptied in constant time: open addressing, each slot stamped with the round that
/// filled it, doubled when half full (256 slots at the first key).
struct Seen {
    slots: Vec<(u32, u128)>,
    round: u32,
    filled: usize,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen { slots: Vec::new(), round: 1, filled: 0 }
    }
}

impl Seen {
    fn clear(&mut self) {
        self.filled = 0;
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.slots.fill((0, 0));
            self.round = 1;
        }
    }

    /// Add `key`; false when it was there.
    #[inline(always)]
    fn insert(&mut self, key: u128) -> bool {
        if 2 * (self.filled + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let folded = (key as u64) ^ ((key >> 64) as u64);
        let mut index = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
        loop {
            let slot = &mut self.slots[index];
            if slot.0 != self.round {
                *slot = (self.round, key);
                self.filled += 1;
                return true;
            }
            if slot.1 == key {
                return false;
            }
            index = (index + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let round = self.round;
        let kept: Vec<u128> = self.slots.iter().filter(|slot| slot.0 == round).map(|slot| slot.1).collect();
        self.slots = vec![(0, 0); (2 * self.slots.len()).max(256)];
        self.round = 1;
        self.filled = 0;
        for key in kept {
            self.insert(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn ends_of(stage: &Stage, board: u128) -> (Vec<Position>, u32) {
        let mut out = Vec::new();
        let used = stage.ends_into(board, &mut Buffers::default(), &mut out);
        (out, used)
    }

    fn pack(points: &[(u32, u128)]) -> u128 {
        points.iter().map(|&(p, n)| n << (p << 2)).sum()
    }

    #[test]
    fn the_opening_six_five_of_tabla() {
        let board = pack(&[(24, 2), (13, 5), (8, 3), (6, 5)]);
        let stage = Stage::new(&[6, 5], 0, 0, 0, true, Terminal::AllOff, true);
        let (ends, used) = ends_of(&stage, board);
        assert_eq!(used, 2);
        assert!(ends.contains(&pack(&[(24, 1), (13, 6), (8, 3), (6, 5)]))); // 24/13
        assert_eq!(ends.iter().collect::<HashSet<_>>().len(), ends.len());
    }

    #[test]
    fn a_closed_point_leaves_one_order() {
        // the last checker on 7 with 6 and 5, point 2 closed: 7/1 with the 6, then 1/off with the 5 (7/2 is closed)
        let board = pack(&[(7, 1), (0, 14)]);
        let stage = Stage::new(&[6, 5], 1u128 << 8, 0, 0, true, Terminal::AllOff, false);
        let (ends, used) = ends_of(&stage, board);
        assert_eq!((ends, used), (vec![pack(&[(0, 15)])], 2));
        // with 1 closed too, nothing moves
        let stage = Stage::new(&[6, 5], (1u128 << 8) | (1u128 << 4), 0, 0, true, Terminal::AllOff, false);
        assert_eq!(ends_of(&stage, board), (vec![], 0));
    }

    #[test]
    fn a_walk_that_misses_a_die_is_no_play() {
        // the same 7 with 6-5, 2 closed: the 6 first walks 7/1/off; the 5 first finds 7/2 closed and gives up
        let board = pack(&[(7, 1), (0, 14)]);
        let stage = Stage::new(&[6, 5], 1u128 << 8, 0, 0, true, Terminal::AllOff, false);
        let mut buffers = Buffers::default();
        assert!(stage.has_play(board));
        assert_eq!(stage.random_play(board, &mut buffers, |_| 0), Some(pack(&[(0, 15)])));
        assert_eq!(stage.random_play(board, &mut buffers, |n| n - 1), None);
    }
}

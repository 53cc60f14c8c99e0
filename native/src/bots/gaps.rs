//! A search of one round of Gaps (Montana) and its family (rules/cards.md §3): depth first, the most promising move
//! first, with a table of the positions seen keyed by a canonical position (the grid up to the order of its rows:
//! rows are interchangeable, so a position and any reordering of its rows win or lose alike). A [`Level`] says
//! which moves are searched: the likely ones only (fast, and it finds most wins), or every legal move, when a
//! search that has seen every reachable position without a win proves that the round cannot be won. A search that
//! runs out of time gives the best line it found (most cards in place).
//!
//! The Python twin is `bots/python/gaps_solver.py`: the same positions, searched in the same order.

use rustc_hash::FxHashSet;
use std::time::{Duration, Instant};

/// An empty place of the grid.
pub const GAP: i16 = -1;

/// The rank index (card % 13) of an ace and of a king.
const ACE: i16 = 12;
const KING: i16 = 11;

/// A move: (card, from place, to place); places are row * columns + column.
pub type Move = (i16, u16, u16);

/// The grid's shape and who heads a row.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub rows: usize,
    pub columns: usize,
    /// Cards in a complete row (12 from 2 to K, 13 from A to K).
    pub row_length: usize,
    /// Aces head the rows (and are followed by 2s) instead of 2s.
    pub aces_lead: bool,
}

impl Layout {
    /// The card that may follow `card` in a row, or -1 (after a king).
    fn successor(&self, card: i16) -> i16 {
        match card % 13 {
            ACE if self.aces_lead => card - ACE,
            ACE => -1,
            KING => -1,
            _ => card + 1,
        }
    }

    /// Whether `card` may fill a gap in the first column.
    fn heads(&self, card: i16) -> bool {
        card % 13 == if self.aces_lead { ACE } else { 0 }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A line wins the round.
    Won,
    /// Every reachable position was seen and none wins: the round cannot be won.
    Exhausted,
    /// The clock, the node budget, the table's size or the move cap stopped the search first.
    Stopped,
}

/// What a search found.
#[derive(Debug)]
pub struct Found {
    pub status: Status,
    /// Cards in place (the rows' runs) at the end of `line`.
    pub placed: usize,
    /// The winning line, or the line to the most cards in place found.
    pub line: Vec<Move>,
    /// Positions searched (each new position counts once).
    pub nodes: u64,
}

/// Limits of a search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub seconds: f64,
    pub nodes: u64,
    /// Moves the line may have (the moves left in the round).
    pub moves: usize,
    /// Positions the table may hold.
    pub table: usize,
}

/// Which moves a search tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// A card in place never moves, and a move growing a run is made at once, alone.
    Likely,
    /// As `Likely`, but a row's first card may move while it is the row's only card in place.
    LoneHeads,
    /// Any card may move; a move growing a run is still made at once, alone.
    AnyCard,
    /// Every legal move: exhausting it proves the round lost.
    Complete,
}

impl Level {
    /// The level of a number 0..=3.
    pub fn of(number: u8) -> Option<Level> {
        [Level::Likely, Level::LoneHeads, Level::AnyCard, Level::Complete].get(number as usize).copied()
    }
}

fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A non-linear mix of a row's hash, so that the sum over the rows does not cancel.
fn mix(h: u128) -> u128 {
    let (lo, hi) = (h as u64, (h >> 64) as u64);
    let a = fmix64(lo ^ 0x9e37_79b9_7f4a_7c15);
    let b = fmix64(hi ^ a);
    ((b as u128) << 64) | a as u128
}

/// The position of one search, kept up to date move by move: the grid, where each card is, the gaps, the rows'
/// runs and the canonical key (the sum over the rows of a mix of each row's Zobrist hash).
struct Search {
    layout: Layout,
    grid: Vec<i16>,
    /// Where each card is (two copies at most), `u16::MAX` for none.
    places: Vec<[u16; 2]>,
    gaps: Vec<u16>,
    runs: Vec<usize>,
    placed: usize,
    zobrist: Vec<u128>,
    row_hash: Vec<u128>,
    key: u128,
    level: Level,
    /// The scored moves of one position (kept to spare an allocation a position).
    scratch: Vec<(i32, Move)>,
}

impl Search {
    fn new(layout: Layout, grid: &[i16], level: Level) -> Search {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            fmix64(state)
        };
        let zobrist = (0..layout.columns * 52).map(|_| ((next() as u128) << 64) | next() as u128).collect();
        let mut search = Search {
            layout,
            grid: grid.to_vec(),
            places: vec![[u16::MAX; 2]; 52],
            gaps: Vec::new(),
            runs: Vec::new(),
            placed: 0,
            zobrist,
            row_hash: vec![0; layout.rows],
            key: 0,
            level,
            scratch: Vec::new(),
        };
        for (place, &card) in grid.iter().enumerate() {
            if card == GAP {
                search.gaps.push(place as u16);
            } else {
                let copies = &mut search.places[card as usize];
                copies[if copies[0] == u16::MAX { 0 } else { 1 }] = place as u16;
                search.row_hash[place / layout.columns] ^= search.z(place % layout.columns, card);
            }
        }
        search.runs = (0..layout.rows).map(|row| search.run(row)).collect();
        search.placed = search.runs.iter().sum();
        search.key = search.row_hash.iter().map(|&h| mix(h)).fold(0, u128::wrapping_add);
        search
    }

    fn z(&self, column: usize, card: i16) -> u128 {
        self.zobrist[column * 52 + card as usize]
    }

    /// The cards in place in `row`: its run from the first column.
    fn run(&self, row: usize) -> usize {
        let start = row * self.layout.columns;
        let first = self.grid[start];
        if first == GAP || !self.layout.heads(first) {
            return 0;
        }
        let mut run = 1;
        while run < self.layout.row_length && self.grid[start + run] == self.layout.successor(self.grid[start + run - 1])
        {
            run += 1;
        }
        run
    }

    /// The moves of the search's level, best first: a move growing a run, then by the gap it leaves (a live one
    /// first), a move taking a card out of a run last; ties by (card, src, dst). Below `Level::Complete` the first
    /// move growing a run past the first column, if there is one, is the only move.
    fn moves(&mut self, out: &mut Vec<Move>) {
        let columns = self.layout.columns;
        let mut scored = std::mem::take(&mut self.scratch);
        scored.clear();
        for &dst in &self.gaps {
            let (row, column) = (dst as usize / columns, dst as usize % columns);
            let grows = column == self.runs[row];
            if column == 0 {
                for suit in 0..4 {
                    let card = suit * 13 + if self.layout.aces_lead { ACE } else { 0 };
                    for &src in &self.places[card as usize] {
                        if src != u16::MAX {
                            scored.push((self.score(card, src, dst, grows), (card, src, dst)));
                        }
                    }
                }
            } else {
                let left = self.grid[dst as usize - 1];
                if left == GAP {
                    continue;
                }
                let card = self.layout.successor(left);
                if card < 0 {
                    continue;
                }
                for &src in &self.places[card as usize] {
                    if src != u16::MAX {
                        scored.push((self.score(card, src, dst, grows), (card, src, dst)));
                    }
                }
            }
        }
        let runs = &self.runs;
        match self.level {
            Level::Likely => scored.retain(|&(_, (_, src, _))| src as usize % columns >= runs[src as usize / columns]),
            Level::LoneHeads => scored.retain(|&(_, (_, src, _))| {
                let run = runs[src as usize / columns];
                src as usize % columns >= run || run == 1
            }),
            Level::AnyCard | Level::Complete => {}
        }
        scored.sort_by_key(|&(score, m)| (-score, m));
        if self.level != Level::Complete {
            let grows = |&&(_, (_, _, dst)): &&(i32, Move)| {
                let column = dst as usize % columns;
                column > 0 && column == runs[dst as usize / columns]
            };
            if let Some(&(_, forced)) = scored.iter().find(grows) {
                out.push(forced);
                self.scratch = scored;
                return;
            }
        }
        out.extend(scored.iter().map(|&(_, m)| m));
        self.scratch = scored;
    }

    fn score(&self, card: i16, src: u16, dst: u16, grows: bool) -> i32 {
        let columns = self.layout.columns;
        let (row, column) = (src as usize / columns, src as usize % columns);
        let mut score = if grows { 100 } else { 0 };
        if column < self.runs[row] {
            score -= 100;
        }
        // the gap left behind: live if a first column, or right of a card that has a follower
        let left = if column == 0 { None } else if src - 1 == dst { Some(card) } else { Some(self.grid[src as usize - 1]) };
        let live = match left {
            None => true,
            Some(GAP) => false,
            Some(left) => self.layout.successor(left) >= 0,
        };
        if live {
            score += 10;
        }
        score
    }

    fn shift(&mut self, card: i16, from: u16, to: u16) {
        let columns = self.layout.columns;
        let (src, dst) = (from as usize, to as usize);
        self.grid[dst] = card;
        self.grid[src] = GAP;
        let copies = &mut self.places[card as usize];
        let slot = if copies[0] == from { 0 } else { 1 };
        copies[slot] = to;
        let gap = self.gaps.iter().position(|&g| g == to).expect("the move fills a gap");
        self.gaps[gap] = from;
        let (src_row, dst_row) = (src / columns, dst / columns);
        let old = mix(self.row_hash[src_row]).wrapping_add(if src_row != dst_row { mix(self.row_hash[dst_row]) } else { 0 });
        self.row_hash[src_row] ^= self.z(src % columns, card);
        self.row_hash[dst_row] ^= self.z(dst % columns, card);
        let new = mix(self.row_hash[src_row]).wrapping_add(if src_row != dst_row { mix(self.row_hash[dst_row]) } else { 0 });
        self.key = self.key.wrapping_sub(old).wrapping_add(new);
        self.placed -= self.runs[src_row];
        self.runs[src_row] = self.run(src_row);
        self.placed += self.runs[src_row];
        if dst_row != src_row {
            self.placed -= self.runs[dst_row];
            self.runs[dst_row] = self.run(dst_row);
            self.placed += self.runs[dst_row];
        }
    }

    fn goal(&self) -> usize {
        self.layout.rows * self.layout.row_length
    }
}

/// One position on the search's path: its moves are `moves[first..end]`, `next` the next to try.
struct Frame {
    first: usize,
    end: usize,
    next: usize,
}

/// Search the round from `grid` (cards of `referee.games.cards._cards`, `GAP` for a gap) within `limits`, trying
/// the moves of `level`. `Exhausted` means that no line of those moves wins (with `Level::Complete`: no line).
pub fn solve(layout: Layout, grid: &[i16], limits: Limits, level: Level) -> Found {
    let deadline = Instant::now() + Duration::from_secs_f64(limits.seconds.max(0.0));
    let mut search = Search::new(layout, grid, level);
    let goal = search.goal();
    let mut best = Found { status: Status::Stopped, placed: search.placed, line: Vec::new(), nodes: 0 };
    if search.placed == goal {
        best.status = Status::Won;
        return best;
    }
    let mut seen: FxHashSet<u128> = FxHashSet::with_capacity_and_hasher(1 << 20, Default::default());
    seen.insert(search.key);
    let mut moves: Vec<Move> = Vec::new();
    let mut line: Vec<Move> = Vec::new();
    search.moves(&mut moves);
    let mut frames = vec![Frame { first: 0, end: moves.len(), next: 0 }];
    let mut cut = false;
    while let Some(frame) = frames.last_mut() {
        if frame.next == frame.end {
            let first = frame.first;
            frames.pop();
            moves.truncate(first);
            if let Some((card, src, dst)) = line.pop() {
                search.shift(card, dst, src);
            }
            continue;
        }
        let (card, src, dst) = moves[frame.next];
        frame.next += 1;
        search.shift(card, src, dst);
        if !seen.insert(search.key) {
            search.shift(card, dst, src);
            continue;
        }
        best.nodes += 1;
        line.push((card, src, dst));
        if search.placed > best.placed {
            best.placed = search.placed;
            best.line = line.clone();
            if search.placed == goal {
                best.status = Status::Won;
                return best;
            }
        }
        if best.nodes >= limits.nodes
            || seen.len() >= limits.table
            || (best.nodes & 4095 == 0 && Instant::now() >= deadline)
        {
            return best;
        }
        if line.len() >= limits.moves {
            cut = true;
            search.shift(card, dst, src);
            line.pop();
            continue;
        }
        let first = moves.len();
        search.moves(&mut moves);
        frames.push(Frame { first, end: moves.len(), next: first });
    }
    if !cut {
        best.status = Status::Exhausted;
    }
    best
}


//! The extra inputs a learned network may read, computed from a position (or from its feature row, read back
//! into the position): the twin of `bots/python/td_inputs.py` (``shots``, ``blocks`` after them and ``contact``
//! after those; Gjul Bara's ``primes``), which says what each number means. A row is the 244 features of
//! `game.rs` (each side's TD-Gammon units per point, bar and borne-off, then each side's pin flags), the side that
//! just played first.

pub use crate::engine::game::FEATURES;
use crate::engine::family::{nibble_bits, occupied};
use crate::engine::game::{count, Sides};

const POINTS: usize = 24;
/// A side's units: four per point, then its bar and its borne-off.
pub const SIDE: usize = 4 * POINTS + 2;
/// Where the pin flags start: the side just moved's, then the other's.
pub const PINS: usize = 2 * SIDE;
const _: () = assert!(FEATURES == PINS + 2 * POINTS);
const MOTHER: u64 = 1 << (POINTS - 1);

/// The input sets a network may read: the features, then the extra inputs of each set up to its own, in order
/// (``shots``, ``blocks`` and ``contact`` each begin with the one before; ``primes`` stands alone).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Inputs {
    Plain,
    Shots,
    Blocks,
    Contact,
    Primes,
}

impl Inputs {
    /// The set of a name (``plain``, ``shots``, ``blocks``, ``contact``, ``primes``), or a one-line error naming
    /// them.
    pub fn named(name: &str) -> Result<Self, String> {
        Ok(match name {
            "plain" => Inputs::Plain,
            "shots" => Inputs::Shots,
            "blocks" => Inputs::Blocks,
            "contact" => Inputs::Contact,
            "primes" => Inputs::Primes,
            _ => return Err(format!("inputs {name:?}: not plain, shots, blocks, contact or primes")),
        })
    }

    /// How many numbers the set adds to the features.
    pub fn extras(self) -> usize {
        match self {
            Inputs::Plain => 0,
            Inputs::Shots => 8,
            Inputs::Blocks => 14,
            Inputs::Contact => 22,
            Inputs::Primes => 8,
        }
    }
}

/// One side of a row over the other, bitmasks of points in its numbering (bit p - 1 for point p; the other side's
/// point q is its point 25 - q).
struct Side {
    /// Its checkers per point.
    checkers: [f32; POINTS],
    /// Its lone checkers that can be pinned.
    lone: u64,
    /// The other side's checkers free to move.
    shooters: u64,
    /// The points the other side may not stop on.
    blocked: u64,
    /// Its checkers on the bar.
    bar: u32,
    /// Its rearmost checker's point (25 on the bar, 0 with none left on the board).
    rear: u32,
}

impl Side {
    fn new(sides: &Sides, side: usize) -> Self {
        let (mine, other) = (sides.boards[side], sides.boards[1 - side]);
        let flag = |pins: u128, point: usize| (pins >> ((point + 1) * 4)) & 1 != 0;
        let bar = count(mine, POINTS as u32 + 1);
        let mut side_of = Side { checkers: [0.0; POINTS], lone: 0, shooters: 0, blocked: 0, bar, rear: 0 };
        let mut pinned = 0u64;
        for point in 0..POINTS {
            let (bit, mirrored) = (1u64 << point, 1u64 << (POINTS - 1 - point));
            let n = count(mine, point as u32 + 1);
            side_of.checkers[point] = n as f32;
            if n > 0 {
                side_of.rear = point as u32 + 1;
            }
            if n == 1 && !flag(sides.pins[side], point) {
                side_of.lone |= bit;
            }
            if n >= 2 {
                side_of.blocked |= bit;
            }
            // The other side's point `point + 1` is my point 24 - point.
            if flag(sides.pins[1 - side], point) {
                pinned |= mirrored;
            } else if count(other, point as u32 + 1) >= 1 {
                side_of.shooters |= mirrored;
            }
        }
        side_of.lone &= !pinned;
        side_of.blocked |= pinned;
        if bar > 0 {
            side_of.rear = POINTS as u32 + 1;
        }
        side_of
    }

    /// Its four ``shots`` inputs.
    fn shots(&self) -> [f64; 4] {
        let dice = (1..=6).filter(|&die| (self.lone >> die) & self.shooters != 0).count() as f64;
        let mothers = if self.lone & MOTHER != 0 { self.shooters } else { 0 };
        let mother_dice = (1..=6).filter(|&die| (mothers >> (POINTS - 1 - die)) & 1 != 0).count() as f64;
        let pips: f32 = self.checkers.iter().enumerate().map(|(point, &n)| (point + 1) as f32 * n).sum();
        [
            1.0 - ((6.0 - dice) / 6.0).powi(2),
            1.0 - ((6.0 - mother_dice) / 6.0).powi(2),
            self.lone.count_ones() as f64 / 15.0,
            f64::from(pips / 200.0),
        ]
    }

    /// The points one free checker of the other side reaches with the roll (`first`, `second`), stopping only
    /// where it may.
    fn reached(&self, first: u32, second: u32) -> u64 {
        let open = !self.blocked;
        if first == second {
            let (mut reached, mut moving) = (0, self.shooters);
            for _ in 0..4 {
                moving <<= first;
                reached |= moving;
                moving &= open;
            }
            return reached;
        }
        let (one, other) = (self.shooters << first, self.shooters << second);
        one | other | ((one & open) << second) | ((other & open) << first)
    }

    /// Its three ``blocks`` inputs.
    fn blocks(&self) -> [f64; 3] {
        let (mut hit, mut mother) = (0u32, 0u32);
        for first in 1..=6 {
            for second in first..=6 {
                let weight = if first == second { 1 } else { 2 };
                let pinned = self.reached(first, second) & self.lone;
                hit += weight * u32::from(pinned != 0);
                mother += weight * u32::from(pinned & MOTHER != 0);
            }
        }
        [f64::from(hit) / 36.0, f64::from(mother) / 36.0, f64::from(runs(self.blocked)) / 6.0]
    }

    /// Its four ``contact`` inputs, `other` the other side.
    fn contact(&self, other: &Side) -> [f64; 4] {
        // The points this side may not stop on, in its numbering: the other's blocked points seen from here.
        let walls = other.blocked.reverse_bits() >> (64 - POINTS);
        let open = |point: i32| point < 1 || walls >> (point - 1) & 1 == 0;
        let entry = (walls >> (POINTS - 6)).count_ones();
        let rear = self.rear as i32;
        let mut escapes = 0u32;
        for first in 1..=6 {
            for second in first..=6 {
                let escaped = if first == second {
                    open(rear - first) && open(rear - 2 * first)
                } else {
                    open(rear - first - second) && (open(rear - first) || open(rear - second))
                };
                escapes += u32::from(escaped || rear == 0) * if first == second { 1 } else { 2 };
            }
        }
        // The other side's rearmost checker on this side's numbering: what this side's checkers must pass.
        let front = POINTS as u32 + 1 - other.rear;
        let behind = |point: u32, n: f32| if point > front { n * (point - front + 1) as f32 } else { 0.0 };
        let pips: f32 = self.checkers.iter().enumerate().map(|(point, &n)| behind(point as u32 + 1, n)).sum::<f32>()
            + behind(POINTS as u32 + 1, self.bar as f32);
        [
            (f64::from(entry) / 6.0).powi(2),
            f64::from(escapes) / 36.0,
            f64::from(pips / 200.0),
            f64::from(self.rear) / 25.0,
        ]
    }
}

/// The longest run of points in a bitmask, up to six.
fn runs(mut held: u64) -> u32 {
    let mut run = 0;
    for _ in 0..6 {
        run += u32::from(held != 0);
        held &= held >> 1; // the points that begin a run one point longer
    }
    run
}

/// The points 1..=24 of `board` that hold a checker, point p as bit p - 1.
fn held_points(board: u128) -> u64 {
    // Bit 4k for each point k + 1 held, then the bits gathered by halves: two to a byte, four to 16 bits, ...
    let mut bits = (occupied(board) >> 4) & nibble_bits(0, POINTS as u32 - 1);
    bits = (bits | bits >> 3) & 0x0303_0303_0303_0303_0303_0303_0303_0303;
    bits = (bits | bits >> 6) & 0x000F_000F_000F_000F_000F_000F_000F_000F;
    bits = (bits | bits >> 12) & 0x0000_00FF_0000_00FF_0000_00FF_0000_00FF;
    bits = (bits | bits >> 24) & 0x0000_0000_0000_FFFF_0000_0000_0000_FFFF;
    ((bits | bits >> 48) & 0xFF_FFFF) as u64
}

/// Gjul Bara's four ``primes`` inputs of `side` of a position: the other side's point q is this side's q + 12 or
/// q - 12 (the map is its own inverse), and one checker of it closes that point.
fn primes(sides: &Sides, side: usize) -> [f64; 4] {
    const ALL: u64 = (1 << POINTS) - 1;
    let across = |points: u64| (points >> 12 | points << 12) & ALL; // to the other side's numbering and back
    let mine = sides.boards[side];
    let (checkers, theirs) = (held_points(mine), held_points(sides.boards[1 - side]));
    let open = !across(theirs) & ALL;
    let (rear, their_rear) = (u64::BITS - checkers.leading_zeros(), u64::BITS - theirs.leading_zeros());
    let (mut pips, mut outside) = (0u32, 0u32);
    let mut rest = checkers;
    while rest != 0 {
        let point = rest.trailing_zeros() + 1;
        rest &= rest - 1;
        let n = count(mine, point);
        pips += point * n;
        outside += if point > 6 { n } else { 0 };
    }
    let home = outside == 0;
    let (mut dice, mut movable) = (0u32, 0u64);
    for die in 1..=6u32 {
        movable |= (open << die) & checkers; // the points a checker leaves by some die
        let bears = home && (count(mine, die) > 0 || (rear > 0 && rear < die));
        dice += u32::from((checkers >> die) & open != 0 || bears);
    }
    let mut stuck = 0;
    let mut unmoved = if home { 0 } else { checkers & !movable };
    while unmoved != 0 {
        stuck += count(mine, unmoved.trailing_zeros() + 1);
        unmoved &= unmoved - 1;
    }
    // The points it holds in the other side's numbering, in front of that side's rearmost checker.
    let held = across(checkers) & ((1u64 << their_rear.saturating_sub(1)) - 1);
    [f64::from(pips as f32 / 200.0), f64::from(dice) / 6.0, f64::from(stuck) / 15.0, f64::from(runs(held)) / 6.0]
}

/// The sides a feature row was made of (`game::features`' inverse): None if a count in it is not a whole number of
/// checkers up to fifteen.
pub fn sides_of(row: &[f32]) -> Option<Sides> {
    let mut sides = Sides { boards: [0, 0], pins: [0, 0] };
    for side in 0..2 {
        let units = &row[side * SIDE..(side + 1) * SIDE];
        let mut board = 0u128;
        for point in 0..POINTS {
            let unit = &units[4 * point..4 * point + 4];
            board |= nibble(unit[0] + unit[1] + unit[2] + 2.0 * unit[3])? << ((point + 1) * 4);
        }
        board |= nibble(2.0 * units[4 * POINTS])? << 100;
        board |= nibble(15.0 * units[4 * POINTS + 1])?;
        sides.boards[side] = board;
        for (point, &pin) in row[PINS + side * POINTS..PINS + (side + 1) * POINTS].iter().enumerate() {
            sides.pins[side] |= u128::from(pin != 0.0) << ((point + 1) * 4);
        }
    }
    Some(sides)
}

/// A count of checkers as a board's nibble.
fn nibble(n: f32) -> Option<u128> {
    let whole = n.round();
    ((whole - n).abs() < 1e-3 && (0.0..=15.0).contains(&whole)).then_some(whole as u128)
}

/// The extra inputs of set `kind` of each row of `rows` (rows of [`FEATURES`]): its ``shots`` (the side just
/// moved's four, the other's four), then its ``blocks`` (three each, in the same order) and its ``contact`` (four
/// each) as far as `kind` goes, or its ``primes`` (four each); None if a row is not the features of a position.
pub fn extras(rows: &[f32], kind: Inputs) -> Option<Vec<f64>> {
    let mut out = Vec::with_capacity(rows.len() / FEATURES * kind.extras());
    for row in rows.chunks_exact(FEATURES) {
        sides_extras(&sides_of(row)?, kind, &mut out);
    }
    Some(out)
}

/// The extra inputs of set `kind` of a position (the side just moved first), appended to `out` (as [`extras`]
/// gives them).
pub fn sides_extras(sides: &Sides, kind: Inputs, out: &mut Vec<f64>) {
    match kind {
        Inputs::Plain => return,
        Inputs::Primes => {
            out.extend(primes(sides, 0));
            out.extend(primes(sides, 1));
            return;
        }
        Inputs::Shots | Inputs::Blocks | Inputs::Contact => {}
    }
    let both = [Side::new(sides, 0), Side::new(sides, 1)];
    for side in &both {
        out.extend(side.shots());
    }
    if kind >= Inputs::Blocks {
        for side in &both {
            out.extend(side.blocks());
        }
    }
    if kind >= Inputs::Contact {
        out.extend(both[0].contact(&both[1]));
        out.extend(both[1].contact(&both[0]));
    }
}

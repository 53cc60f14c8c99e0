//! Exact one-sided bear-off tables for the races of Tabla and Tapa: once neither side has a checker outside its
//! home board (and none on the bar), the sides can no longer meet, and each side's race is its own. For every way
//! of placing up to fifteen checkers on the points 1..6, the chance that bearing them all off takes exactly n rolls,
//! each roll played so that the expected number of rolls is least, and the same for the rolls until the first
//! checker is off (what a mars needs). Two such distributions give the chances of both sides exactly, under
//! those plays. Gjul Bara's doubles climb the ladder: its races are not these.
//!
//! The tables are made on first use, in about half a second.

use std::sync::OnceLock;

use crate::engine::game::{count, Sides};

/// Points of the home board.
const HOME: usize = 6;
/// Checkers of a side.
const CHECKERS: usize = 15;
/// The longest race counted: fifteen checkers on the 6-point need at most 23 rolls of 1-2.
pub const ROLLS: usize = 32;
/// Ways of placing up to fifteen checkers on six points: C(21, 6).
const POSITIONS: usize = 54_264;

/// A side's home board: checkers on the points 1..6.
type Home = [u8; HOME];

/// For each position (by [`rank`]), the distribution of the rolls to bear all off and to bear the first off.
pub struct Tables {
    all_off: Vec<[f32; ROLLS]>,
    first_off: Vec<[f32; ROLLS]>,
}

/// C(n, k) for n ≤ 21, k ≤ 6.
const BINOMIAL: [[usize; HOME + 1]; 22] = {
    let mut table = [[0; HOME + 1]; 22];
    let mut n = 0;
    while n < 22 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= HOME && k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// The index of a home board among all of [`POSITIONS`]: its checkers and the rest up to fifteen as a composition
/// of fifteen into seven parts, ranked by the combinatorial number system.
fn rank(home: &Home) -> usize {
    let mut total = 0;
    let mut index = 0;
    for (point, &n) in home.iter().enumerate() {
        total += n as usize;
        index += BINOMIAL[total + point][point + 1];
    }
    index
}

/// Every home board of up to fifteen checkers.
fn all_homes() -> Vec<Home> {
    let mut homes = Vec::with_capacity(POSITIONS);
    let mut home = [0u8; HOME];
    fn fill(home: &mut Home, point: usize, left: u8, homes: &mut Vec<Home>) {
        if point == HOME {
            homes.push(*home);
            return;
        }
        for n in 0..=left {
            home[point] = n;
            fill(home, point + 1, left - n, homes);
        }
        home[point] = 0;
    }
    fill(&mut home, 0, CHECKERS as u8, &mut homes);
    homes
}

/// The boards one step of `die` from the point `at + 1` leads to from `home`, if it is legal (§1.4: a die equal to
/// a checker's point bears it off, a die above the highest point bears off from that point only, otherwise the
/// checker moves within the board).
fn step(home: &Home, at: usize, die: usize) -> Option<Home> {
    let point = at + 1;
    if home[at] == 0 || (point < die && home[at + 1..].iter().any(|&n| n > 0)) {
        return None;
    }
    let mut next = *home;
    next[at] -= 1;
    if point > die {
        next[at - die] += 1;
    }
    Some(next)
}

/// Calls `each` with every board a roll of `dice` (two different dice, or four equal ones) leads to from `home`,
/// every die played while a checker is left (a board may come more than once). Four equal dice are taken from
/// points in falling order: any legal order of such steps can be put in that order, and stays legal.
fn after_roll(home: &Home, dice: &[usize], each: &mut impl FnMut(&Home)) {
    fn walk(home: &Home, dice: &[usize], highest: usize, each: &mut impl FnMut(&Home)) {
        if dice.is_empty() || home.iter().all(|&n| n == 0) {
            return each(home);
        }
        let doubles = dice.len() > 2 || (dice.len() == 2 && dice[0] == dice[1]);
        for at in (0..=highest).rev() {
            if let Some(next) = step(home, at, dice[0]) {
                walk(&next, &dice[1..], if doubles { at } else { HOME - 1 }, each);
            }
        }
    }
    walk(home, dice, HOME - 1, each);
    if dice.len() == 2 {
        walk(home, &[dice[1], dice[0]], HOME - 1, each);
    }
}

/// The 21 rolls: their dice and weights in 36.
fn rolls() -> Vec<(Vec<usize>, f64)> {
    let mut rolls = Vec::with_capacity(21);
    for high in 1..=6 {
        for low in 1..=high {
            rolls.push(if high == low { (vec![high; 4], 1.0) } else { (vec![high, low], 2.0) });
        }
    }
    rolls
}

/// One table: for each board, the distribution of the rolls until `done` holds, each roll played to make the
/// expected number least. Boards are taken in order of pips, so every board a roll leads to is known before.
fn table(homes: &[Home], done: impl Fn(&Home) -> bool) -> Vec<[f32; ROLLS]> {
    let mut order: Vec<usize> = (0..homes.len()).collect();
    let pips = |home: &Home| home.iter().enumerate().map(|(at, &n)| (at + 1) * n as usize).sum::<usize>();
    order.sort_by_key(|&index| pips(&homes[index]));
    let mut expected = vec![0f64; POSITIONS];
    let mut dist = vec![[0f32; ROLLS]; POSITIONS];
    let rolls = rolls();
    for index in order {
        let home = &homes[index];
        let at = rank(home);
        if done(home) {
            continue;
        }
        let mut mean = 1.0;
        let mut shares = [0f64; ROLLS];
        for (dice, weight) in &rolls {
            let value = |board: &Home| if done(board) { 0.0 } else { expected[rank(board)] };
            let mut best = (f64::INFINITY, *home);
            after_roll(home, dice, &mut |board| {
                let v = value(board);
                if v < best.0 {
                    best = (v, *board);
                }
            });
            let after = best.1;
            let share = weight / 36.0;
            if done(&after) {
                shares[0] += share;
            } else {
                let next = rank(&after);
                mean += share * expected[next];
                for (n, p) in dist[next].iter().enumerate().take(ROLLS - 1) {
                    shares[n + 1] += share * f64::from(*p);
                }
            }
        }
        expected[at] = mean;
        dist[at] = shares.map(|p| p as f32);
    }
    dist
}

/// The tables, made on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let homes = all_homes();
        let all_off = table(&homes, |home| home.iter().all(|&n| n == 0));
        let first_off = table(&homes, |home| home.iter().map(|&n| n as usize).sum::<usize>() < CHECKERS);
        Tables { all_off, first_off }
    })
}

/// A side's home board, if all its checkers left on the board are on its points 1..6.
fn home_of(board: u128) -> Option<Home> {
    if (7..=25).any(|point| count(board, point) != 0) {
        return None;
    }
    let mut home = [0u8; HOME];
    for (at, n) in home.iter_mut().enumerate() {
        *n = count(board, at as u32 + 1) as u8;
    }
    Some(home)
}

impl Tables {
    /// The distribution of rolls to bear off all of `home` (entry n: n + 1 rolls).
    pub fn all_off(&self, home: &Home) -> &[f32; ROLLS] {
        &self.all_off[rank(home)]
    }

    /// The same to bear off the first checker (all zeros once one is off).
    pub fn first_off(&self, home: &Home) -> &[f32; ROLLS] {
        &self.first_off[rank(home)]
    }

    /// The points the side that just moved (first in `sides`) can expect less the other's, when both sides are
    /// bearing off (no checker outside its home board, none on the bar, none pinned) and neither has won yet: the
    /// other rolls first. None for other positions.
    pub fn value(&self, sides: &Sides) -> Option<f32> {
        if sides.pins != [0, 0] {
            return None;
        }
        let (moved, to_roll) = (home_of(sides.boards[0])?, home_of(sides.boards[1])?);
        if moved.iter().all(|&n| n == 0) || to_roll.iter().all(|&n| n == 0) {
            return None;
        }
        let (a, b) = (self.all_off(&to_roll), self.all_off(&moved));
        let none_off = |home: &Home| home.iter().map(|&n| n as usize).sum::<usize>() == CHECKERS;
        // The side to roll finishes on its n-th roll (entry n - 1) before the other's n-th.
        let mut later = 1.0f64; // P(the side just moved needs n rolls or more)
        let (mut wins, mut mars, mut marsed) = (0.0f64, 0.0f64, 0.0f64);
        let (fa, fb) = (self.first_off(&to_roll), self.first_off(&moved));
        let (mut a_none_after, mut b_none_before) = (1.0f64, 1.0f64);
        for n in 0..ROLLS {
            let pa = f64::from(a[n]);
            wins += pa * later;
            if none_off(&moved) {
                mars += pa * b_none_before;
            }
            let pb = f64::from(b[n]);
            if none_off(&to_roll) {
                a_none_after -= f64::from(fa[n]);
                marsed += pb * a_none_after.max(0.0);
            }
            later -= pb;
            b_none_before -= f64::from(fb[n]);
        }
        let to_roll_points = 2.0 * wins - 1.0 + mars - marsed;
        Some(-to_roll_points as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(home: &Home) -> u128 {
        let off = CHECKERS as u128 - home.iter().map(|&n| n as u128).sum::<u128>();
        home.iter().enumerate().fold(off, |board, (at, &n)| board | (n as u128) << ((at + 1) * 4))
    }

    #[test]
    fn races_are_worth_their_mars() {
        let tables = tables();
        let value = |moved: &Home, to_roll: &Home| {
            tables.value(&Sides { boards: [board(moved), board(to_roll)], pins: [0, 0] }).expect("a race")
        };
        // The side to roll bears its last checker off at once while the other has none off: a mars.
        assert_eq!(value(&[0, 0, 0, 0, 0, 15], &[1, 0, 0, 0, 0, 0]), -2.0);
        // The side to roll cannot finish, and keeps all fifteen in 19 rolls of 36; then the other finishes.
        assert!((value(&[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 15]) - (1.0 + 19.0 / 36.0)).abs() < 1e-6);
        // One each on the 1-point: whoever rolls wins, by one point.
        assert_eq!(value(&[1, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0]), -1.0);
        // Not a race: a checker outside the home board, or on the bar.
        let outside = Sides { boards: [board(&[1, 0, 0, 0, 0, 0]) | 1 << 28, board(&[1, 0, 0, 0, 0, 0])], pins: [0, 0] };
        assert!(tables.value(&outside).is_none());
    }

    #[test]
    fn ranks_are_a_numbering_of_all_boards() {
        let homes = all_homes();
        assert_eq!(homes.len(), POSITIONS);
        let mut seen = vec![false; POSITIONS];
        for home in &homes {
            let at = rank(home);
            assert!(!seen[at]);
            seen[at] = true;
        }
    }

    #[test]
    fn small_races_take_the_rolls_they_must() {
        let tables = tables();
        // One checker on the 1-point: one roll.
        assert_eq!(tables.all_off(&[1, 0, 0, 0, 0, 0])[0], 1.0);
        // Two on the 6-point: one roll only with a double of 3 or more (6-6, 5-5, 4-4, 3-3).
        assert!((tables.all_off(&[0, 0, 0, 0, 0, 2])[0] - 4.0 / 36.0).abs() < 1e-6);
        // Fifteen on the 6-point: a checker is off at the first roll with a 6, or dice that make six (5-1, 4-2,
        // 3-3, 2-2): 17 rolls of 36.
        assert!((tables.first_off(&[0, 0, 0, 0, 0, 15])[0] - 17.0 / 36.0).abs() < 1e-6);
        for home in all_homes() {
            let sum: f32 = tables.all_off(&home).iter().sum();
            assert!(home == [0; 6] || (sum - 1.0).abs() < 1e-4, "{home:?}: {sum}");
        }
    }
}

//! The Durak search bot's rollouts (`bots/python/durak_mc_bot.py`): from a guessed position, each legal action
//! followed by playouts with the search bot's greedy policy, on the engine's deals (`engine::durak`).

use crate::engine::durak::{Action, State, BEAT, LEAD, SHOW, TAKE, THROW, TRANSFER};
use crate::engine::game::SplitMix64;

/// The actions as the Python engine writes them: (kind, cards).
pub fn words(action: Action) -> (u8, Vec<u8>) {
    (action.kind(), action.cards().collect())
}

fn cost(card: u8, trump: i32) -> i32 {
    card as i32 % 13 + if card as i32 / 13 == trump { 13 } else { 0 }
}

/// The search bot's playout policy (`bots.python.durak_search_bot.greedy`): shed or spend the cheapest card, take
/// rather than spend a high trump, pass otherwise; a random action with probability `explore`.
fn greedy(state: &State, legal: &[Action], explore: f64, rng: &mut SplitMix64) -> Action {
    if legal.len() == 1 || (rng.below(1 << 30) as f64) < explore * (1u64 << 30) as f64 {
        return legal[rng.below(legal.len() as u64) as usize];
    }
    let trump = state.trump;
    let mut best = legal[0];
    let mut best_value = f64::NEG_INFINITY;
    for &action in legal {
        let value = match action.kind() {
            LEAD => 30.0 - cost(action.card(0), trump) as f64 + action.cards().count() as f64,
            BEAT => 20.0 - cost(action.card(1), trump) as f64,
            TRANSFER | SHOW => 25.0 - cost(action.card(0), trump) as f64 / 2.0,
            THROW => 12.0 - cost(action.card(0), trump) as f64,
            TAKE => -8.0,
            _ => 0.0,
        };
        if value > best_value {
            best = action;
            best_value = value;
        }
    }
    best
}

/// The legal actions of `root` and, for each, the sum over `rollouts` greedy playouts after it of seat `me`'s
/// points minus the mean of the others'.
pub fn rollout_totals(root: &State, me: usize, rollouts: usize, explore: f64, seed: u64) -> (Vec<Action>, Vec<f64>) {
    let mut rng = SplitMix64::new(seed);
    let mut legal = Vec::new();
    root.legal(&mut legal);
    let mut scratch = Vec::with_capacity(64);
    let n = root.rules.seats as f64;
    let totals = legal
        .iter()
        .map(|&first| {
            (0..rollouts)
                .map(|_| {
                    let mut state = root.clone();
                    state.apply(first);
                    while !state.is_over() {
                        state.legal(&mut scratch);
                        let pick = greedy(&state, &scratch, explore, &mut rng);
                        state.apply(pick);
                    }
                    let points = state.ending().points;
                    let others: u32 = points.iter().sum::<u32>() - points[me];
                    points[me] as f64 - others as f64 / (n - 1.0)
                })
                .sum()
        })
        .collect();
    (legal, totals)
}

//! Positions of a Tabla-family game valued by truncated rollouts (`bots/python/rollout_train.py`): positions met
//! in a network's greedy self-play where a turn has passed (the side just moved against the side to roll; in Gjul
//! Bara never within a ladder's chain or before a remainder's receiver rolls), each played on from the opponent's
//! every first roll by the same network for a few decisions and then valued by it: a better judge of a position
//! than the network's own value, to train the network on.

use super::bearoff;
use super::self_play::{choose, Work};
use super::value_net::ValueNet;
use crate::engine::game::{features, play_to_end, Game, Phase, Sides, SplitMix64, State, Variant, FEATURES};

/// How the positions are drawn and rolled out.
#[derive(Clone, Copy)]
pub struct Rollouts {
    /// Self-play games to draw positions from.
    pub games: usize,
    /// Every how many decisions of a game a position is kept.
    pub every: usize,
    /// Rollouts per position; the first roll runs through the 36 in turn.
    pub rollouts: usize,
    /// Decisions played in a rollout (both sides') before the network values where it stands: none, the network's
    /// own value.
    pub plies: usize,
}

/// The feature rows of the positions kept (the side just moved first, the other to roll) and each one's value for
/// the side just moved: the mean of its rollouts, a game that ends by its points, in Tabla and Tapa a race of both
/// sides bearing off by the exact tables (in the choice of plays too; Gjul Bara's races climb the ladder, which
/// the tables do not know). Dice come from `rng`.
pub fn rolled_out(net: &ValueNet, game: Game, spec: Rollouts, rng: &mut SplitMix64) -> (Vec<f32>, Vec<f32>) {
    let mut work = Work::new(exact_races(game));
    let (mut rows, mut values) = (Vec::new(), Vec::new());
    let mut row = vec![0.0; FEATURES];
    for _ in 0..spec.games {
        let mut state = State::new(game, None, false);
        let mut decisions = 0;
        play_to_end(&mut state, rng, |state, rng| {
            let mover = state.turn();
            let choice = choose(net, state, &mut work);
            state.play(choice.index);
            decisions += 1;
            let passed = state.phase == Phase::Roll && state.turn() != mover;
            if passed && decisions % spec.every == 0 {
                features(&choice.after, &mut row);
                rows.extend_from_slice(&row);
                let rolls = [state.rolls()[1 - mover], state.rolls()[mover]];
                values.push(rollout_value(net, game, &choice.after, rolls, spec, rng, &mut work));
            }
        });
    }
    (rows, values)
}

/// Whether the exact bear-off tables value the races of `game`: Tabla's and Tapa's, not Gjul Bara's.
fn exact_races(game: Game) -> bool {
    !matches!(game.variant, Variant::GjulBara { .. })
}

/// Whether the bear-off tables value the position of `state` (both sides bearing off): a rollout stops there.
fn exact(state: &State) -> bool {
    let (boards, pins) = (state.boards(), state.pins());
    exact_races(state.game()) && bearoff::tables().value(&Sides { boards, pins }).is_some()
}

/// The mean over `spec.rollouts` rollouts of `sides` (the side just moved first) with the rolls each side has
/// made (the side to roll first: Gjul Bara's ladder counts them) of that side's points less the other's, each
/// played until the game ends, `spec.plies` decisions are made or both sides bear off.
fn rollout_value(net: &ValueNet, game: Game, sides: &Sides, rolls: [u32; 2], spec: Rollouts, rng: &mut SplitMix64,
                 work: &mut Work) -> f32 {
    let mut total = 0.0;
    for rollout in 0..spec.rollouts {
        // Seat 0 rolls first: the side to roll; seat 1 the side just moved.
        let mut state = State::new(game, Some(0), false);
        state.place([sides.boards[1], sides.boards[0]], [sides.pins[1], sides.pins[0]], rolls);
        let stratum = (rollout % 36) as u32;
        let mut first = Some((stratum / 6 + 1, stratum % 6 + 1));
        let mut decisions = 0;
        loop {
            match state.phase {
                Phase::Move => {
                    state.play(choose(net, &state, work).index);
                    decisions += 1;
                }
                Phase::Roll if decisions < spec.plies && !exact(&state) => {
                    let (high, low) = first.take().unwrap_or_else(|| rng.dice());
                    state.roll(high.max(low), high.min(low));
                }
                _ => break,
            }
        }
        total += match state.outcome {
            Some(outcome) => outcome.points[1] as f32 - outcome.points[0] as f32,
            None => {
                let (moved, boards, pins) = (1 - state.turn(), state.boards(), state.pins());
                let after = Sides { boards: [boards[moved], boards[1 - moved]], pins: [pins[moved], pins[1 - moved]] };
                let value = work.value(net, &after);
                if moved == 1 { value } else { -value }
            }
        };
    }
    total / spec.rollouts as f32
}

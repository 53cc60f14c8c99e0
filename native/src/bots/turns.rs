//! Whole turns valued by a learned network, for the search of a game whose turn can be more than one stage: in
//! Gjul Bara a double from the ladder's roll on is a chain of stages the same side plays, and a chain's unplayable
//! rest can be handed to the other side, which plays it before its own roll. Each stage is played by the play the
//! network values best for the stage's mover where that play leaves the position (one stage at a time, as
//! `bots/python/td1_bot.py` follows an opponent's chain), and the turn is valued where it ends, when the dice pass.

use crate::engine::game::{after_play, Game, Phase, Sides, State};

use super::value_net::{Base, Scratch, ValueNet};

/// Where one roll's turn ends.
pub struct TurnEnd {
    /// The roll's weight in 36.
    pub weight: u32,
    /// The value for the side that rolled: the network's, or its points less the other's if the game ended.
    pub value: f32,
    /// The points (the side that rolled first) if the game ended.
    pub ended: Option<(u32, u32)>,
    /// The position the turn leaves, the side to roll next first (the other side: the dice always pass).
    pub after: Sides,
    /// The rolls each side has made, in the order of `after`.
    pub rolls: [u32; 2],
}

/// `state`'s sides, `seat`'s first.
fn sides_of(state: &State, seat: usize) -> Sides {
    let (boards, pins) = (state.boards(), state.pins());
    Sides { boards: [boards[seat], boards[1 - seat]], pins: [pins[seat], pins[1 - seat]] }
}

/// Every roll's turn from `sides` (the side to roll first) with `rolls` made (the same order), in `game`: for each of
/// the 21 rolls (high die 1..6, low die 1..high) where the turn ends when each stage is played by the play `net`
/// values best for its mover (a play that ends the game by its points).
pub fn best_turns(game: Game, sides: Sides, rolls: [u32; 2], net: &ValueNet, scratch: &mut Scratch) -> Vec<TurnEnd> {
    let other_first = Sides { boards: [sides.boards[1], sides.boards[0]], pins: [sides.pins[1], sides.pins[0]] };
    let bases = [net.base(&sides), net.base(&other_first)];
    let mut ends = Vec::with_capacity(21);
    for high in 1..=6 {
        for low in 1..=high {
            let mut state = State::new(game, Some(0), false);
            state.place(sides.boards, sides.pins, rolls);
            state.roll(high, low);
            while state.phase == Phase::Move {
                let best = best_play(&state, net, &bases[state.turn()], scratch);
                state.play(best);
            }
            let weight = if high == low { 1 } else { 2 };
            ends.push(turn_end(&state, weight, net, &bases, scratch));
        }
    }
    ends
}

/// The index of the play of `state`'s stage that `net` values best for its mover (`base` near the mover's side).
fn best_play(state: &State, net: &ValueNet, base: &Base, scratch: &mut Scratch) -> usize {
    let now = sides_of(state, state.turn());
    let mut best = (f32::NEG_INFINITY, 0);
    for (index, &end) in state.ends.iter().enumerate() {
        let value = match after_play(*state.variant(), now, end) {
            (_, Some(outcome)) => outcome.points[0] as f32 - outcome.points[1] as f32,
            (after, None) => net.value_near(base, &after, scratch),
        };
        if value > best.0 {
            best = (value, index);
        }
    }
    best.1
}

/// The turn's end in `state` (the game over, or the dice passed) for seat 0, the side that rolled.
fn turn_end(state: &State, weight: u32, net: &ValueNet, bases: &[Base; 2], scratch: &mut Scratch) -> TurnEnd {
    let next = state.turn();
    let rolls = state.rolls();
    let (after, rolls) = (sides_of(state, next), [rolls[next], rolls[1 - next]]);
    match state.outcome {
        Some(outcome) => {
            let [first, second] = outcome.points;
            let value = first as f32 - second as f32;
            TurnEnd { weight, value, ended: Some((first, second)), after, rolls }
        }
        None => {
            let moved = 1 - next;
            let value = net.value_near(&bases[moved], &sides_of(state, moved), scratch);
            let value = if moved == 0 { value } else { -value };
            TurnEnd { weight, value, ended: None, after, rolls }
        }
    }
}

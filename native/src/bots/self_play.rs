//! TD(λ) self-play in the core: the twin of `train` in `bots/python/td_train.py` for a points network (both seats
//! play the network greedily; each seat's previous position learns toward the value of the position it chooses
//! next, and at the end toward the points it scored, with an eligibility trace per seat), in float32 where the
//! reference computes in float64. Dice come from the playouts' stream (`SplitMix64`), as the reference draws
//! them when given that stream.

use super::inputs::{sides_extras, FEATURES};
use super::bearoff;
use super::value_net::{dot, squash, Base, Scratch, ValueNet};
use crate::engine::game::{after_play, features, play_to_end, Game, Sides, SplitMix64, State};

/// The learning rate and the traces' decay.
#[derive(Clone, Copy)]
pub struct Rates {
    pub alpha: f32,
    pub lambda: f32,
}

/// One seat's eligibility trace (the network's shape) and the inputs of its previous position.
struct Trace {
    columns: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    last: Option<Vec<f32>>,
}

impl Trace {
    fn new(net: &ValueNet) -> Trace {
        Trace { columns: vec![0.0; net.columns.len()], b1: vec![0.0; net.hidden], w2: vec![0.0; net.hidden], b2: 0.0,
                last: None }
    }
}

/// What every decision reuses: a feature row, the hidden units, the extra inputs; and whether races of both sides
/// bearing off are valued by the exact tables instead of the network.
pub(super) struct Work {
    row: Vec<f32>,
    scratch: Scratch,
    extras: Vec<f64>,
    units: Vec<f32>,
    exact_races: bool,
}

impl Work {
    pub(super) fn new(exact_races: bool) -> Work {
        Work { row: vec![0.0; FEATURES], scratch: Scratch::default(), extras: Vec::new(), units: Vec::new(), exact_races }
    }

    /// The value of `sides` (the side just moved first) by `net`, or by the bear-off tables.
    pub(super) fn value(&mut self, net: &ValueNet, sides: &Sides) -> f32 {
        self.value_near(net, &net.base(sides), sides)
    }

    /// The value of `sides` by `net` from a base near it, or by the bear-off tables.
    fn value_near(&mut self, net: &ValueNet, base: &Base, sides: &Sides) -> f32 {
        let exact = if self.exact_races { bearoff::tables().value(sides) } else { None };
        exact.unwrap_or_else(|| net.value_near(base, sides, &mut self.scratch))
    }
}

/// The mover's best play by a network: its index among the stage's plays, the sides it leaves (the mover first),
/// its value for the mover and whether it ends the game.
pub(super) struct Choice {
    pub index: usize,
    pub after: Sides,
    pub value: f32,
    pub ends: bool,
}

/// Play `games` games of `game` from their opening throws, the dice drawn from `rng`, training `net` as they go.
pub fn self_play(net: &mut ValueNet, game: Game, games: usize, rates: Rates, rng: &mut SplitMix64) {
    let mut work = Work::new(false);
    for _ in 0..games {
        let mut traces = [Trace::new(net), Trace::new(net)];
        let mut state = State::new(game, None, false);
        let (mut ended, mut seat) = (false, 0);
        play_to_end(&mut state, rng, |state, _| {
            seat = state.turn();
            let choice = choose(net, state, &mut work);
            let inputs = inputs(net, &choice.after, &mut work);
            learn(net, &mut traces[seat], choice.value, rates, &mut work);
            traces[seat].last = Some(inputs);
            ended = choice.ends;
            state.play(choice.index);
        });
        let points = state.outcome.expect("a finished game has an outcome").points;
        let learners: &[usize] = if ended { &[1 - seat] } else { &[0, 1] };
        for &learner in learners {
            let target = points[learner] as f32 - points[1 - learner] as f32;
            learn(net, &mut traces[learner], target, rates, &mut work);
        }
    }
}

/// The mover's best play by the network (a play that ends the game is worth its points; the first of equals).
pub(super) fn choose(net: &ValueNet, state: &State, work: &mut Work) -> Choice {
    let (mover, boards, pins) = (state.turn(), state.boards(), state.pins());
    let sides = Sides { boards: [boards[mover], boards[1 - mover]], pins: [pins[mover], pins[1 - mover]] };
    let variant = *state.variant();
    let base = net.base(&sides);
    let mut best: Option<(usize, f32, Sides, bool)> = None;
    for (index, &end) in state.ends.iter().enumerate() {
        let (after, outcome) = after_play(variant, sides, end);
        let value = match outcome {
            Some(outcome) => outcome.points[0] as f32 - outcome.points[1] as f32,
            None => work.value_near(net, &base, &after),
        };
        if best.is_none_or(|(_, most, _, _)| value > most) {
            best = Some((index, value, after, outcome.is_some()));
        }
    }
    let (index, value, after, ends) = best.expect("a seat to move has a play");
    Choice { index, after, value, ends }
}

/// The features of a position (the side just moved first) followed by the extra inputs `net` reads.
fn inputs(net: &ValueNet, sides: &Sides, work: &mut Work) -> Vec<f32> {
    features(sides, &mut work.row);
    let mut inputs = work.row.clone();
    work.extras.clear();
    sides_extras(sides, net.extras, &mut work.extras);
    inputs.extend(work.extras.iter().map(|&x| x as f32));
    inputs
}

/// Move the value of the trace's previous position toward `target`: decay the trace, add the value's gradient at
/// that position, and step every weight by the error times its trace.
fn learn(net: &mut ValueNet, trace: &mut Trace, target: f32, rates: Rates, work: &mut Work) {
    let Some(inputs) = &trace.last else { return };
    let hidden = net.hidden;
    let units = &mut work.units;
    units.clear();
    units.extend_from_slice(&net.b1);
    for (input, &x) in inputs.iter().enumerate() {
        if x != 0.0 {
            let column = &net.columns[input * hidden..(input + 1) * hidden];
            for (unit, weight) in units.iter_mut().zip(column) {
                *unit += x * weight;
            }
        }
    }
    squash(units);
    let value = net.b2 + dot(units, &net.w2);
    let error = rates.alpha * (target - value);
    let lambda = rates.lambda;
    // The gradient by b1 (and, times an input, by that input's column) is w2 · σ'(unit); by w2 the units.
    let back: Vec<f32> = units.iter().zip(&net.w2).map(|(unit, weight)| weight * unit * (1.0 - unit)).collect();
    trace.b2 = lambda * trace.b2 + 1.0;
    net.b2 += error * trace.b2;
    for (at, unit) in units.iter().enumerate() {
        trace.w2[at] = lambda * trace.w2[at] + unit;
        net.w2[at] += error * trace.w2[at];
        trace.b1[at] = lambda * trace.b1[at] + back[at];
        net.b1[at] += error * trace.b1[at];
    }
    for (input, &x) in inputs.iter().enumerate() {
        let span = input * hidden..(input + 1) * hidden;
        let (column, traced) = (&mut net.columns[span.clone()], &mut trace.columns[span]);
        for ((weight, t), b) in column.iter_mut().zip(traced.iter_mut()).zip(&back) {
            *t = lambda * *t + x * b;
            *weight += error * *t;
        }
    }
}

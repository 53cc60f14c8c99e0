//! The bots' accelerators as Python calls them: the Gaps solver's search, the Durak search bot's rollouts, the
//! extra inputs of a learned network's rows, and a search step valued by a learned network.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::net_rollouts::{rolled_out, Rollouts};
use super::self_play::{self_play, Rates};
use super::value_net::{Scratch, ValueNet};
use super::rollouts::{rollout_totals, words};
use super::{bearoff, gaps, inputs};
use crate::engine::durak;
use crate::engine::family_core::{each_reply, family_game, one_stage, sides_tuple};
use crate::engine::game::{Sides, SplitMix64};
use crate::engine::python::{durak_rules, DurakOptions};

/// Both sides of a position as Python gives them: (the side's board, the other's, its pins, the other's).
type Sides4 = (u128, u128, u128, u128);

/// A roll's best reply: the roll's weight in 36, the reply's value, its points if it ends the game (the mover's
/// first), the position it leaves (the side just moved first).
type BestReply = (u32, f32, Option<(u32, u32)>, Sides4);

/// A search of one Gaps round from ``grid`` (card integers, -1 for a gap) on a ``rows`` x ``columns`` grid whose
/// complete rows hold ``row_length`` cards (headed by aces when ``aces_lead``), trying the moves of ``level`` (0
/// the likely ones … 3 every legal move), depth first, within ``seconds``, ``nodes`` positions, a line of ``moves``
/// moves and a table of ``table`` positions. Returns ``(status, placed, line, nodes)``: status ``won``,
/// ``exhausted`` (no line of those moves wins) or ``stopped``; the cards in place at the end of the line (the
/// winning one, or the best found), given as ``(card, src, dst)`` moves; the positions searched. The twin of
/// ``bots.python.gaps_solver.python_solve``.
#[pyfunction]
#[pyo3(signature = (grid, rows, columns, row_length, aces_lead, level, seconds, nodes, moves, table))]
#[allow(clippy::too_many_arguments)]
pub(super) fn gaps_solve(
    py: Python<'_>,
    grid: Vec<i16>,
    rows: usize,
    columns: usize,
    row_length: usize,
    aces_lead: bool,
    level: u8,
    seconds: f64,
    nodes: u64,
    moves: usize,
    table: usize,
) -> PyResult<(&'static str, usize, Vec<gaps::Move>, u64)> {
    let shape_ok = rows > 0 && row_length < columns && grid.len() == rows * columns;
    if !shape_ok || grid.iter().any(|&c| !(-1..52).contains(&c)) {
        return Err(PyValueError::new_err(format!(
            "expected a grid of {rows} x {columns} places holding cards 0..51 and -1 for gaps, got {} places",
            grid.len()
        )));
    }
    let level = gaps::Level::of(level).ok_or_else(|| PyValueError::new_err(format!("level {level} is not 0..3")))?;
    let layout = gaps::Layout { rows, columns, row_length, aces_lead };
    let limits = gaps::Limits { seconds, nodes, moves, table };
    let found = py.allow_threads(|| gaps::solve(layout, &grid, limits, level));
    let status = match found.status {
        gaps::Status::Won => "won",
        gaps::Status::Exhausted => "exhausted",
        gaps::Status::Stopped => "stopped",
    };
    Ok((status, found.placed, found.line, found.nodes))
}

/// A legal action as Python reads it: (kind, cards).
type DurakWords = (u8, Vec<u8>);

/// A determinized search step of `bots.python.durak_mc_bot`: the position of a guess (the public state of a seat's
/// view and guessed hands and stock, as `Durak.from_view` builds it), then, for each legal action of the seat to
/// act (in the engine's order), the sum over `rollouts` playouts with the search bot's greedy policy of seat
/// `me`'s points minus the mean of the others'. Returns the actions and their sums.
#[pyfunction]
#[pyo3(signature = (rules, hands, known, places, stock, trump_card, table, discard, shown, phase, bout, attacker,
    defender, throw_room, to_act, *, me, rollouts, explore, seed))]
#[allow(clippy::too_many_arguments)]
pub(super) fn durak_rollouts(
    py: Python<'_>,
    rules: DurakOptions,
    hands: Vec<u64>,
    known: Vec<u64>,
    places: Vec<u32>,
    stock: Vec<u8>,
    trump_card: i8,
    table: Vec<(u8, i8)>,
    discard: u64,
    shown: u64,
    phase: &str,
    bout: u32,
    attacker: usize,
    defender: usize,
    throw_room: usize,
    to_act: usize,
    me: usize,
    rollouts: usize,
    explore: f64,
    seed: u64,
) -> PyResult<(Vec<DurakWords>, Vec<f64>)> {
    let rules = durak_rules(rules)?;
    let guess = durak::Guess {
        hands: &hands,
        known: &known,
        places: &places,
        stock: &stock,
        trump_card,
        table: &table,
        discard,
        shown,
        phase,
        bout,
        attacker,
        defender,
        throw_room,
        to_act,
    };
    let root = durak::State::from_guess(rules, &guess)
        .ok_or_else(|| PyValueError::new_err(format!("not a position of this deal: phase {phase:?}, seat {to_act}")))?;
    if me >= rules.seats || root.to_act() != to_act {
        return Err(PyValueError::new_err(format!("seat {to_act} does not act here")));
    }
    let (legal, totals) = py.allow_threads(|| rollout_totals(&root, me, rollouts, explore, seed));
    Ok((legal.into_iter().map(words).collect(), totals))
}

/// The extra inputs of feature rows (``rows``: the little-endian float32 rows of ``after_features``) as
/// little-endian float64 rows: those of the input set ``kind`` (``shots``, ``blocks``, ``contact`` or
/// ``primes``). The twin of ``bots.python.td_inputs``'s numpy reference.
#[pyfunction]
pub(super) fn extra_inputs<'py>(py: Python<'py>, rows: &[u8], kind: &str) -> PyResult<Bound<'py, PyBytes>> {
    let kind = inputs::Inputs::named(kind).map_err(PyValueError::new_err)?;
    if !rows.len().is_multiple_of(4 * inputs::FEATURES) {
        return Err(PyValueError::new_err(format!("{} bytes are not rows of {} features", rows.len(), inputs::FEATURES)));
    }
    let values: Vec<f32> = rows.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let extras = inputs::extras(&values, kind)
        .ok_or_else(|| PyValueError::new_err("a row is not the features of a position"))?;
    let bytes: Vec<u8> = extras.iter().flat_map(|value| value.to_le_bytes()).collect();
    Ok(PyBytes::new(py, &bytes))
}


/// Every roll's best reply from each of ``positions`` (the side to roll first: its board, the other's, its pins,
/// the other's, each in its own numbering, as ``FamilyCore.replies`` takes them) in a ``game`` of one stage a turn
/// (``tabla`` or ``tapa``, with its resolved options), by the value ``net`` gives the side replying, a reply that
/// ends the game valued by its points (the mover's less the other's), a race of both sides bearing off by the
/// exact tables (``bearoff_values``): per position and roll, in
/// ``FamilyCore.replies``' order, the roll's weight in 36, the best reply's value, its points if it ends the game
/// and the position it leaves (the side just moved first). The rows of the replies never leave the core: a level of
/// a search by points costs this one call.
#[pyfunction]
#[pyo3(signature = (game, positions, net, *, stuck_limit=100, ladder_from=4, count_global=false,
    remainder_to_opponent=true, blocks_all=false, both_mothers_points=0))]
#[allow(clippy::too_many_arguments)]
pub(super) fn best_replies(
    game: &str,
    positions: Vec<Sides4>,
    net: &ValueNet,
    stuck_limit: u32,
    ladder_from: u32,
    count_global: bool,
    remainder_to_opponent: bool,
    blocks_all: bool,
    both_mothers_points: u32,
) -> PyResult<Vec<BestReply>> {
    let game = one_stage(family_game(game, stuck_limit, ladder_from, count_global, remainder_to_opponent, blocks_all,
        both_mothers_points)?)?;
    let mut scratch = Scratch::default();
    let mut best = Vec::with_capacity(21 * positions.len());
    for (mine, theirs, my_pins, their_pins) in positions {
        let sides = Sides { boards: [mine, theirs], pins: [my_pins, their_pins] };
        let base = net.base(&sides);
        let first = best.len();
        let counts = each_reply(game, sides, |roll, after, ended| {
            let value = match ended {
                Some((points, other)) => points as f32 - other as f32,
                None => bearoff::tables().value(after).unwrap_or_else(|| net.value_near(&base, after, &mut scratch)),
            };
            if first + roll == best.len() {
                best.push((0, f32::NEG_INFINITY, None, sides_tuple(after)));
            }
            let entry = &mut best[first + roll];
            if value > entry.1 {
                *entry = (0, value, ended, sides_tuple(after));
            }
        });
        for (entry, (weight, _)) in best[first..].iter_mut().zip(counts) {
            entry.0 = weight;
        }
    }
    Ok(best)
}

/// A trained network as Python takes it back: `w1`, `b1`, `w2` (float32 bytes), `b2`, and where the dice's stream
/// stands.
type TrainedNet<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, f32, u64);

/// ``games`` games of TD(λ) self-play in a ``game`` of the family (with its resolved options) that train the points
/// network of ``w1``, ``b1``, ``w2``, ``b2`` (``ValueNet``'s arguments, reading the input set ``inputs``) at rate
/// ``alpha`` with trace decay ``lam``, the dice drawn from the playouts' stream as it stands at ``rng``. Returns
/// the trained ``w1``, ``b1``, ``w2`` (float32 bytes), ``b2`` and where the stream stands after them. The twin of
/// ``bots.python.td_train.train`` on that stream.
#[pyfunction]
#[pyo3(signature = (game, w1, b1, w2, b2, inputs, *, games, rng, alpha, lam, stuck_limit=100, ladder_from=4,
    count_global=false, remainder_to_opponent=true, blocks_all=false, both_mothers_points=0))]
#[allow(clippy::too_many_arguments)]
pub(super) fn td_self_play<'py>(
    py: Python<'py>,
    game: &str,
    w1: &[u8],
    b1: &[u8],
    w2: &[u8],
    b2: f32,
    inputs: &str,
    games: usize,
    rng: u64,
    alpha: f32,
    lam: f32,
    stuck_limit: u32,
    ladder_from: u32,
    count_global: bool,
    remainder_to_opponent: bool,
    blocks_all: bool,
    both_mothers_points: u32,
) -> PyResult<TrainedNet<'py>> {
    let game = family_game(game, stuck_limit, ladder_from, count_global, remainder_to_opponent, blocks_all,
        both_mothers_points)?;
    let mut net = ValueNet::of_bytes(w1, b1, w2, b2, inputs)?;
    let mut stream = SplitMix64::new(rng);
    py.allow_threads(|| self_play(&mut net, game, games, Rates { alpha, lambda: lam }, &mut stream));
    let [w1, b1, w2] = net.to_bytes();
    Ok((PyBytes::new(py, &w1), PyBytes::new(py, &b1), PyBytes::new(py, &w2), net.b2, stream.state()))
}

/// Positions of ``games`` games of greedy self-play by ``net`` in a ``game`` of the Tabla family (with its resolved
/// options), every ``every``-th decision's where the turn passed (never within Gjul Bara's ladder), each valued for
/// the side that just moved by ``rollouts`` rollouts (the first roll through the 36 in turn) of ``plies`` decisions
/// played by ``net``, then valued by it (a game that ends by its points; in Tabla and Tapa a race of both sides
/// bearing off by the exact tables, in the choice of plays too: a rollout stops there); dice from the playouts'
/// stream as it stands at ``rng``. Returns the positions' feature rows and their values (float32 bytes) and where
/// the stream stands after them.
#[pyfunction]
#[pyo3(signature = (game, net, *, games, every, rollouts, plies, rng, stuck_limit=100, ladder_from=4,
    count_global=false, remainder_to_opponent=true, blocks_all=false, both_mothers_points=0))]
#[allow(clippy::too_many_arguments)]
pub(super) fn td_rollouts<'py>(
    py: Python<'py>,
    game: &str,
    net: &ValueNet,
    games: usize,
    every: usize,
    rollouts: usize,
    plies: usize,
    rng: u64,
    stuck_limit: u32,
    ladder_from: u32,
    count_global: bool,
    remainder_to_opponent: bool,
    blocks_all: bool,
    both_mothers_points: u32,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, u64)> {
    let game = family_game(game, stuck_limit, ladder_from, count_global, remainder_to_opponent, blocks_all,
        both_mothers_points)?;
    if every == 0 || rollouts == 0 {
        return Err(PyValueError::new_err("every and rollouts must be positive"));
    }
    let mut stream = SplitMix64::new(rng);
    let spec = Rollouts { games, every, rollouts, plies };
    let (rows, values) = py.allow_threads(|| rolled_out(net, game, spec, &mut stream));
    let bytes = |numbers: &[f32]| numbers.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    Ok((PyBytes::new(py, &bytes(&rows)), PyBytes::new(py, &bytes(&values)), stream.state()))
}

/// The value of each feature row (``rows``: little-endian float32 rows of ``after_features``, the side just moved
/// first) in which both sides are bearing off, for the side just moved, by the exact one-sided bear-off tables of
/// Tabla and Tapa (made on first use, in about half a second); NaN for the other rows. As float32 bytes.
#[pyfunction]
pub(super) fn bearoff_values<'py>(py: Python<'py>, rows: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    if !rows.len().is_multiple_of(4 * inputs::FEATURES) {
        return Err(PyValueError::new_err(format!("{} bytes are not rows of {} features", rows.len(), inputs::FEATURES)));
    }
    let values: Vec<f32> = rows.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let tables = py.allow_threads(bearoff::tables);
    let bytes: Vec<u8> = values
        .chunks_exact(inputs::FEATURES)
        .flat_map(|row| inputs::sides_of(row).and_then(|sides| tables.value(&sides)).unwrap_or(f32::NAN).to_le_bytes())
        .collect();
    Ok(PyBytes::new(py, &bytes))
}

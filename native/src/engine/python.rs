//! The engine's functions as Python calls them: positions to and from Python ints, one stage's plays, random
//! playouts of whole games, Durak's rules from `Durak.core_rules`, and the features of each play's position.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyTuple};

use super::family::{self, hit_points, position, Position, Stage, Terminal, BOARD_BITS, BOARD_MASK};
use super::{durak, family_core, game};

/// A Python int (a packed board, perhaps with hit bits above bit 104) as a position: at once when it fits 128
/// bits (no hit beyond point 5), else its board and its hits apart.
pub(crate) fn position_of(value: &Bound<PyAny>) -> PyResult<Position> {
    let int = value.downcast::<PyInt>()?;
    if let Ok(small) = int.extract::<u128>() {
        return Ok(position(small & BOARD_MASK, small >> BOARD_BITS));
    }
    let board: u128 = int.bitand(BOARD_MASK)?.extract()?;
    let hits: u128 = int.rshift(BOARD_BITS)?.extract()?;
    Ok(position(board, hits))
}

/// A position as the Python int the engines key plays by: the board, hits above bit 104.
pub(crate) fn int_of(py: Python<'_>, end: Position) -> PyResult<PyObject> {
    let (board, hits) = (end & BOARD_MASK, hit_points(end));
    if hits >> (128 - BOARD_BITS) == 0 {
        return Ok((hits << BOARD_BITS | board).into_pyobject(py)?.into_any().unbind());
    }
    Ok(hits.into_pyobject(py)?.lshift(BOARD_BITS)?.bitor(board)?.unbind())
}

/// A stage from the fields of a Python `Stage`, checked.
fn stage_of(
    dice: Vec<u32>,
    closed: u128,
    frozen: u128,
    singles: u128,
    can_bear_off: bool,
    track_hits: bool,
    rule: i8,
) -> PyResult<Stage> {
    if dice.is_empty() || dice.len() > 4 || dice.iter().any(|&d| !(1..=6).contains(&d)) {
        return Err(PyValueError::new_err(format!("bad dice {dice:?}")));
    }
    let terminal = match rule {
        -2 => Terminal::Never,
        -1 => Terminal::AllOff,
        0 | 1 => Terminal::Mother { my_mother_pinned: rule == 1 },
        _ => return Err(PyValueError::new_err(format!("rule must be -2, -1, 0 or 1, not {rule}"))),
    };
    Ok(Stage::new(&dice, closed, frozen, singles, can_bear_off, terminal, track_hits))
}

/// The end positions of every legal play of one stage, each once and in increasing order (of the Python ints),
/// and how many dice they use: the same as
/// `referee.games._ends.stage_ends` for a `Stage` with these fields. ``rule`` says what ends the game within the
/// stage: -2 nothing, -1 the 15th checker off, 0 or 1 that or Tapa's mother rule (1: the mover's own mother is
/// pinned).
#[pyfunction]
#[pyo3(signature = (board, dice, closed, frozen, singles, can_bear_off, track_hits, rule))]
#[allow(clippy::too_many_arguments)]
pub(super) fn stage_ends(
    py: Python<'_>,
    board: &Bound<PyAny>,
    dice: Vec<u32>,
    closed: u128,
    frozen: u128,
    singles: u128,
    can_bear_off: bool,
    track_hits: bool,
    rule: i8,
) -> PyResult<(Vec<PyObject>, u32)> {
    let stage = stage_of(dice, closed, frozen, singles, can_bear_off, track_hits, rule)?;
    let start = position_of(board)?;
    let mut ends = Vec::new();
    let used = py.allow_threads(|| stage.ends_into(start, &mut family::Buffers::default(), &mut ends));
    let ints = ends.into_iter().map(|end| int_of(py, end)).collect::<PyResult<Vec<_>>>()?;
    Ok((ints, used))
}

/// Every legal play of one stage with its steps and its notation, as ``{end: (((src, dst, die, hit), ...),
/// "24/18 18/13")}``, and how many dice they use: the same as `referee.games.tabla_family._ends.python_stage_plays`
/// (the steps of ``Stage.plays`` for each end).
#[pyfunction]
#[pyo3(signature = (board, dice, closed, frozen, singles, can_bear_off, track_hits, rule))]
#[allow(clippy::too_many_arguments)]
pub(super) fn stage_plays<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    dice: Vec<u32>,
    closed: u128,
    frozen: u128,
    singles: u128,
    can_bear_off: bool,
    track_hits: bool,
    rule: i8,
) -> PyResult<(Bound<'py, PyDict>, u32)> {
    let stage = stage_of(dice, closed, frozen, singles, can_bear_off, track_hits, rule)?;
    plays_of(py, &stage, position_of(board)?)
}

/// The plays of `stage` from `start` as `stage_plays` gives them.
fn plays_of<'py>(py: Python<'py>, stage: &Stage, start: Position) -> PyResult<(Bound<'py, PyDict>, u32)> {
    let (found, used) = py.allow_threads(|| stage.plays(start));
    Ok((plays_dict(py, &found)?, used))
}

/// Found plays as ``{end: (steps, notation)}``.
pub(crate) fn plays_dict<'py>(py: Python<'py>, found: &family::Found) -> PyResult<Bound<'py, PyDict>> {
    let plays = PyDict::new(py);
    let mut text = String::new();
    for (end, steps) in &found.plays {
        notation(steps.as_slice(), &mut text);
        let steps = PyTuple::new(py, steps.as_slice().iter().copied())?;
        plays.set_item(int_of(py, *end)?, (steps, text.as_str()))?;
    }
    Ok(plays)
}

/// A play's notation, as `referee.games.tabla_family._plays.Play.notation` writes it: ``13/10* bar/20 6/off``.
pub(crate) fn notation(steps: &[family::Step], text: &mut String) {
    use std::fmt::Write;
    text.clear();
    for (index, &(src, dst, _, hit)) in steps.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        match src {
            25 => text.push_str("bar"),
            _ => write!(text, "{src}").expect("a String takes any text"),
        }
        text.push('/');
        match dst {
            0 => text.push_str("off"),
            _ => write!(text, "{dst}").expect("a String takes any text"),
        }
        if hit {
            text.push('*');
        }
    }
}

/// One playout as Python reads it: termination, each seat's points, decisions.
type PlayoutRow = (&'static str, (u32, u32), u32);

/// `count` games (or matches) of `game` (``tabla``, ``gjul-bara``, ``tapa`` or ``tabla-match``) played to their
/// end with random dice and plays chosen by `policy` (``uniform``: among the distinct legal plays; ``steps``:
/// random single steps), all from one SplitMix64 stream seeded with `seed`, with the games' resolved options. Returns ``(termination, (points, points), decisions)`` per game: for a match, ``match``, the
/// final score and the plays of all its games. The twin of ``referee.playouts.python_playouts``.
#[pyfunction]
#[pyo3(signature = (game, count, seed, *, policy="uniform", stuck_limit=100, ladder_from=4, count_global=false,
    remainder_to_opponent=true, blocks_all=false, both_mothers_points=0, target=5, every_game_opens=false))]
#[allow(clippy::too_many_arguments)]
pub(super) fn playouts(
    py: Python<'_>,
    game: &str,
    count: usize,
    seed: u64,
    policy: &str,
    stuck_limit: u32,
    ladder_from: u32,
    count_global: bool,
    remainder_to_opponent: bool,
    blocks_all: bool,
    both_mothers_points: u32,
    target: u32,
    every_game_opens: bool,
) -> PyResult<Vec<PlayoutRow>> {
    if target == 0 {
        return Err(PyValueError::new_err("target must be positive"));
    }
    let policy = game::Policy::named(policy)
        .ok_or_else(|| PyValueError::new_err(format!("no playout policy {policy:?}: uniform or steps")))?;
    let one = |id| {
        family_core::family_game(id, stuck_limit, ladder_from, count_global, remainder_to_opponent, blocks_all,
            both_mothers_points)
    };
    let (played, word) = match game {
        "tabla-match" => {
            let games = [one("tabla")?, one("gjul-bara")?, one("tapa")?];
            let spec = game::Match { games, target, every_game_opens };
            (py.allow_threads(|| game::match_playouts(spec, policy, count, seed)), Some("match"))
        }
        _ => {
            let one = match game {
                "tabla" | "gjul-bara" | "tapa" => one(game)?,
                _ => return Err(PyValueError::new_err(format!("no native playouts for {game:?}"))),
            };
            (py.allow_threads(|| game::game_playouts(one, policy, count, seed)), None)
        }
    };
    Ok(played
        .into_iter()
        .map(|p| {
            let [a, b] = p.outcome.points;
            (word.unwrap_or(p.outcome.termination.word()), (a, b), p.decisions)
        })
        .collect())
}

/// A single Durak deal's options, as Python gives them: ``(seats, teams, transfers, lowest_rank, bout_limit,
/// first_bout_limit, multi_card_lead, transfer_in_first_bout, show_trump, redeal)`` (``Durak.core_rules``).
pub(crate) type DurakOptions = (usize, bool, bool, u32, usize, usize, bool, bool, bool, bool);

pub(crate) fn durak_rules(options: DurakOptions) -> PyResult<durak::Rules> {
    let (seats, teams, transfers, lowest_rank, bout_limit, first_bout_limit, multi, first_transfer, show, redeal) =
        options;
    let enough = (seats as u32) * 6 <= 4 * (15 - lowest_rank.clamp(2, 14));
    if !(2..=6).contains(&seats) || ![2, 6, 9].contains(&lowest_rank) || !enough || (teams && seats != 4) {
        return Err(PyValueError::new_err(format!("no Durak deal of {seats} seats from rank {lowest_rank}")));
    }
    if !(1..=6).contains(&bout_limit) || !(1..=bout_limit).contains(&first_bout_limit) {
        return Err(PyValueError::new_err("bout limits must be 1..6, the first at most the others'"));
    }
    Ok(durak::Rules {
        seats,
        teams,
        transfers,
        lowest_rank,
        bout_limit,
        first_bout_limit,
        multi_card_lead: multi,
        transfer_in_first_bout: first_transfer,
        show_trump: show,
        redeal,
    })
}

/// `count` deals of Durak (a single deal's `rules`) played to their end with uniformly random decisions and
/// chance, all from one SplitMix64 stream seeded with `seed`. Returns ``(termination, points per seat,
/// decisions)`` per deal. The twin of ``referee.playouts.python_playouts`` for Durak.
#[pyfunction]
pub(super) fn durak_playouts(
    py: Python<'_>,
    rules: DurakOptions,
    count: usize,
    seed: u64,
) -> PyResult<Vec<(&'static str, Vec<u32>, u32)>> {
    let rules = durak_rules(rules)?;
    let played = py.allow_threads(|| durak::playouts(rules, count, seed));
    Ok(played.into_iter().map(|p| (p.ending.termination, p.ending.points, p.decisions)).collect())
}

/// The points of a play that ends the game (the mover's first), or None.
type EndPoints = Option<(u32, u32)>;

/// The position after each of `ends` (a stage's legal plays, as the engines key them) of the mover of a `game`
/// (``tabla``, ``gjul-bara`` or ``tapa``) whose side is `mover` with `my_pins` against `other` with
/// `their_pins`: its features (``len(ends)`` rows of `game::FEATURES` little-endian float32, the side just moved
/// first) and, for a play that ends the game, its points (the mover's first), else None. The twin of
/// ``referee.games.tabla_family.features.python_after_features``.
#[pyfunction]
#[pyo3(signature = (game, mover, other, my_pins, their_pins, ends, *, both_mothers_points=0))]
#[allow(clippy::too_many_arguments)]
pub(super) fn after_features<'py>(
    py: Python<'py>,
    game: &str,
    mover: u128,
    other: u128,
    my_pins: u128,
    their_pins: u128,
    ends: Vec<Bound<'py, PyAny>>,
    both_mothers_points: u32,
) -> PyResult<(Bound<'py, PyBytes>, Vec<EndPoints>)> {
    let variant = match game {
        "tabla" => game::Variant::Tabla,
        "gjul-bara" => game::Variant::GjulBara { ladder_from: 4, count_global: false, remainder_to_opponent: true },
        "tapa" => game::Variant::Tapa { blocks_all: false, both_mothers_points },
        _ => return Err(PyValueError::new_err(format!("no features for {game:?}"))),
    };
    let sides = game::Sides { boards: [mover, other], pins: [my_pins, their_pins] };
    let mut rows = vec![0f32; ends.len() * game::FEATURES];
    let mut outcomes = Vec::with_capacity(ends.len());
    for (end, row) in ends.iter().zip(rows.chunks_exact_mut(game::FEATURES)) {
        let (after, ended) = game::after_play(variant, sides, position_of(end)?);
        game::features(&after, row);
        outcomes.push(ended.map(|outcome| (outcome.points[0], outcome.points[1])));
    }
    let bytes: Vec<u8> = rows.iter().flat_map(|value| value.to_le_bytes()).collect();
    Ok((PyBytes::new(py, &bytes), outcomes))
}

//! The Tabla family's state machine (`game::State`) behind the Python State API: `FamilyCore` is what a native
//! `referee.games.tabla_family` state holds (`_native.py`), so that a roll, a play and the next stage's plays cost
//! one call into the core. The Python engines are the reference; `tests/games/test_native_state.py` plays seeded
//! games through both and compares every step.

use std::sync::OnceLock;

use prost::Message;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PySlice, PyTuple};

use super::family::{Found, Position, Stage};
use super::proto::legal_action::Detail;
use super::proto::{legal_actions_field, BackgammonPlay, BackgammonPoint, BackgammonStep, BackgammonView, LegalAction, MatchScore};
use super::game::{after_play, count, Game, Phase, Sides, State, Variant};
use super::python::{int_of, notation, plays_dict, position_of};

/// `current_player` while a chance step is due, and once the game is over (`referee.games._core`).
const CHANCE: i32 = -1;
const TERMINAL: i32 = -2;

/// A game of the family from its id and resolved options.
#[allow(clippy::too_many_arguments)]
pub fn family_game(
    game: &str,
    stuck_limit: u32,
    ladder_from: u32,
    count_global: bool,
    remainder_to_opponent: bool,
    blocks_all: bool,
    both_mothers_points: u32,
) -> PyResult<Game> {
    if stuck_limit == 0 {
        return Err(PyValueError::new_err("stuck_limit must be positive"));
    }
    let variant = match game {
        "tabla" => Variant::Tabla,
        "gjul-bara" => Variant::GjulBara { ladder_from, count_global, remainder_to_opponent },
        "tapa" => Variant::Tapa { blocks_all, both_mothers_points },
        _ => return Err(PyValueError::new_err(format!("{game:?} is not a game of the Tabla family"))),
    };
    Ok(Game { variant, stuck_limit })
}

/// A seat's view as `BackgammonView` holds it, but for the variant, the seat and the match score: its checkers and
/// the opponent's on its points 1..24, the pin markers there (0 none, 1 its own checker pinned, 2 the opponent's),
/// both bars, both sides' checkers off, the dice of the stage to play, the seat to move (-1 at the opening and the
/// end), both seats' rolls, Gjul Bara's later stages and whether a remainder is played.
type View<'py> = (
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    (u32, u32, u32, u32),
    Bound<'py, PyTuple>,
    i32,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    bool,
    Bound<'py, PyBytes>,
);

/// Pin markers of a view (`referee.games.tabla_family._views`).
const PIN_MINE: u32 = 1;
const PIN_THEIRS: u32 = 2;

/// Both boards, both pins, both seats' rolls, the seat whose turn it is, the dice of the stage to play.
type Snapshot = ((u128, u128), (u128, u128), (u32, u32), usize, Vec<u32>);

/// One game of the Tabla family in progress (`FamilyState`'s twin).
#[pyclass(module = "kafana_native.engine")]
#[derive(Clone)]
pub struct FamilyCore {
    state: State,
}

/// One stage's legal plays: a sequence of their end positions (sorted; each made a Python int only when it is
/// read), with the stage's constant facts and the mover's board for their steps (listed the first time a play is
/// shown, then kept).
#[pyclass(module = "kafana_native.engine", frozen, sequence)]
pub struct FamilyStage {
    ends: Vec<Position>,
    stage: Stage,
    board: Position,
    found: OnceLock<Found>,
}

impl FamilyStage {
    /// The stage's plays with their steps, listed once (without the GIL).
    fn found(&self, py: Python<'_>) -> &Found {
        self.found.get_or_init(|| py.allow_threads(|| self.stage.plays(self.board).0))
    }
}

#[pymethods]
impl FamilyStage {
    fn __len__(&self) -> usize {
        self.ends.len()
    }

    /// The end of play ``index`` (negative from the end), or a list of them for a slice.
    fn __getitem__(&self, py: Python<'_>, index: &Bound<PyAny>) -> PyResult<PyObject> {
        if let Ok(slice) = index.downcast::<PySlice>() {
            let range = slice.indices(self.ends.len() as isize)?;
            let mut ends = Vec::with_capacity(range.slicelength);
            let mut at = range.start;
            for _ in 0..range.slicelength {
                ends.push(int_of(py, self.ends[at as usize])?);
                at += range.step;
            }
            return Ok(PyList::new(py, ends)?.into_any().unbind());
        }
        let index: isize = index.extract()?;
        let at = if index < 0 { index + self.ends.len() as isize } else { index };
        match usize::try_from(at).ok().and_then(|at| self.ends.get(at)) {
            Some(&end) => int_of(py, end),
            None => Err(PyIndexError::new_err("play index out of range")),
        }
    }

    /// Every end, in order, as Python ints.
    fn ends(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        self.ends.iter().map(|&end| int_of(py, end)).collect()
    }

    /// The stage's plays with their steps and notations, ``{end: (steps, notation)}`` (``stage_plays``).
    fn plays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        plays_dict(py, self.found(py))
    }

    /// The notation of the play that ends in ``end`` (``24/18 18/13``).
    fn notation(&self, py: Python<'_>, end: &Bound<PyAny>) -> PyResult<String> {
        let end = position_of(end)?;
        let steps = self.found(py).steps_of(&end).ok_or_else(|| PyValueError::new_err("no play of the stage ends there"))?;
        let mut text = String::new();
        notation(steps.as_slice(), &mut text);
        Ok(text)
    }

    /// The plays as an ActRequest's ``legal_actions`` records, ids 0.. in end order: each with its notation and,
    /// with ``detail``, its steps (the bytes ``referee.wire.act_request_bytes`` writes for them).
    fn records<'py>(&self, py: Python<'py>, detail: bool) -> Bound<'py, PyBytes> {
        let found = self.found(py);
        let mut records = Vec::with_capacity(self.ends.len() * 24);
        let mut text = String::new();
        for (id, end) in self.ends.iter().enumerate() {
            let steps = found.steps_of(end).expect("every end is a listed play").as_slice();
            notation(steps, &mut text);
            let backgammon = detail.then(|| BackgammonPlay {
                steps: steps
                    .iter()
                    .map(|&(from, to, die, hit)| BackgammonStep { from: from as i32, to: to as i32, die: die as i32, hit })
                    .collect(),
            });
            let action = LegalAction { id: id as i32, notation: text.clone(), detail: backgammon.map(Detail::Backgammon) };
            prost::encoding::message::encode(legal_actions_field(), &action, &mut records);
        }
        PyBytes::new(py, &records)
    }
}

impl FamilyCore {
    fn current(&self) -> i32 {
        match self.state.phase {
            Phase::Opening | Phase::Roll => CHANCE,
            Phase::Move => self.state.turn() as i32,
            Phase::Over => TERMINAL,
        }
    }
}

#[pymethods]
impl FamilyCore {
    /// A new game of ``game`` (``tabla``, ``gjul-bara``, ``tapa``) with its resolved options: an opening throw, or
    /// ``starter`` rolls first; with ``opening_dice_play`` the opening dice are the first roll.
    #[new]
    #[pyo3(signature = (game, starter, opening_dice_play, *, stuck_limit=100, ladder_from=4, count_global=false,
        remainder_to_opponent=true, blocks_all=false, both_mothers_points=0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        starter: Option<usize>,
        opening_dice_play: bool,
        stuck_limit: u32,
        ladder_from: u32,
        count_global: bool,
        remainder_to_opponent: bool,
        blocks_all: bool,
        both_mothers_points: u32,
    ) -> PyResult<FamilyCore> {
        let game =
            family_game(game, stuck_limit, ladder_from, count_global, remainder_to_opponent, blocks_all, both_mothers_points)?;
        if starter.is_some_and(|seat| seat > 1) {
            return Err(PyValueError::new_err("the starter is seat 0 or 1"));
        }
        Ok(FamilyCore { state: State::new(game, starter, opening_dice_play) })
    }

    /// An independent copy.
    fn copy(&self) -> FamilyCore {
        self.clone()
    }

    /// The seat to move, -1 while a throw is due, -2 at the end.
    #[getter]
    fn current_player(&self) -> i32 {
        self.current()
    }

    /// ``opening``, ``roll``, ``move`` or ``over``.
    #[getter]
    fn phase(&self) -> &'static str {
        match self.state.phase {
            Phase::Opening => "opening",
            Phase::Roll => "roll",
            Phase::Move => "move",
            Phase::Over => "over",
        }
    }

    /// The opening throw, ``first`` thrown by seat 0; the seat to act after it, None outside the opening.
    fn opening(&mut self, first: u32, second: u32) -> Option<i32> {
        if self.state.phase != Phase::Opening || !(1..=6).contains(&first) || !(1..=6).contains(&second) {
            return None;
        }
        self.state.opening(first, second);
        Some(self.current())
    }

    /// The seat to roll rolls ``high``-``low``; the seat to act after it, None when no roll is due.
    fn roll(&mut self, high: u32, low: u32) -> Option<i32> {
        if self.state.phase != Phase::Roll || !(1..=6).contains(&low) || !(low..=6).contains(&high) {
            return None;
        }
        self.state.roll(high, low);
        Some(self.current())
    }

    /// The seat to move plays the legal play ending in ``end``; the seat to act after it, None when no legal play
    /// ends there.
    fn play(&mut self, end: &Bound<PyAny>) -> PyResult<Option<i32>> {
        if self.state.phase != Phase::Move {
            return Ok(None);
        }
        let end = position_of(end)?;
        Ok(self.state.play_end(end).then(|| self.current()))
    }

    /// The legal plays of the stage to play (None unless a seat is to move).
    fn legal(&self) -> Option<FamilyStage> {
        if self.state.phase != Phase::Move {
            return None;
        }
        let (stage, board) = self.state.current_stage();
        Some(FamilyStage { ends: self.state.ends.clone(), stage, board, found: OnceLock::new() })
    }

    /// Both seats' boards, pins and rolls made, the seat whose turn it is and the dice of the stage to play.
    fn snapshot(&self) -> Snapshot {
        let ([b0, b1], [p0, p1], [r0, r1]) = (self.state.boards(), self.state.pins(), self.state.rolls());
        ((b0, b1), (p0, p1), (r0, r1), self.state.turn(), self.state.dice().to_vec())
    }

    /// ``seat``'s view of the position (the twin of ``FamilyState.view``, without what the Python state adds: the
    /// variant's name, the seat and the match score): ``(mine, theirs, pins, (my_bar, their_bar, my_off,
    /// their_off), dice, turn, rolls, later_stages, remainder, record)``, ``record`` the bytes of the whole
    /// ``kafana.v1.BackgammonView`` with the variant's ``name`` and the match score ``(points, target, game_number,
    /// current_game)`` the Python state gives it.
    fn view<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
        name: &str,
        score: (Vec<i32>, i32, i32, String),
    ) -> PyResult<View<'py>> {
        if seat > 1 {
            return Err(PyValueError::new_err(format!("the seats are 0 and 1, not {seat}")));
        }
        let ([me, opp], pins) = (self.state.boards(), self.state.pins());
        let (me, opp) = if seat == 0 { (me, opp) } else { (opp, me) };
        let (my_pins, their_pins) = (pins[seat], pins[1 - seat]);
        let variant = self.state.variant();
        let theirs_to_mine = |point: u32| match variant {
            Variant::GjulBara { .. } => if point <= 12 { point + 12 } else { point - 12 },
            _ => 25 - point,
        };
        let marker = |point: u32| match variant {
            Variant::Tapa { .. } if count(my_pins, point) & 1 == 1 => PIN_MINE,
            Variant::Tapa { .. } if count(their_pins, 25 - point) & 1 == 1 => PIN_THEIRS,
            _ => 0,
        };
        let turn = match self.state.phase {
            Phase::Opening | Phase::Over => -1,
            _ => self.state.turn() as i32,
        };
        let (later, remainder) = self.state.ladder();
        let mine: Vec<u32> = (1..25u32).map(|point| count(me, point)).collect();
        let theirs: Vec<u32> = (1..25u32).map(|point| count(opp, theirs_to_mine(point))).collect();
        let markers: Vec<u32> = (1..25u32).map(marker).collect();
        let bars = (count(me, 25), count(opp, 25), count(me, 0), count(opp, 0));
        let (points, target, game_number, current_game) = score;
        let record = BackgammonView {
            variant: name.to_string(),
            points: (0..24)
                .map(|at| BackgammonPoint { mine: mine[at] as i32, theirs: theirs[at] as i32, pin: markers[at] as i32 })
                .collect(),
            my_bar: bars.0 as i32,
            their_bar: bars.1 as i32,
            my_off: bars.2 as i32,
            their_off: bars.3 as i32,
            dice: self.state.dice().iter().map(|&die| die as i32).collect(),
            turn,
            r#match: Some(MatchScore { points, target, game_number, current_game }),
            rolls: self.state.rolls().iter().map(|&rolls| rolls as i32).collect(),
            later_stages: later.iter().map(|&die| die as i32).collect(),
            remainder,
        };
        Ok((
            PyTuple::new(py, mine)?,
            PyTuple::new(py, theirs)?,
            PyTuple::new(py, markers)?,
            bars,
            PyTuple::new(py, self.state.dice())?,
            turn,
            PyTuple::new(py, self.state.rolls())?,
            PyTuple::new(py, later)?,
            remainder,
            PyBytes::new(py, &record.encode_to_vec()),
        ))
    }

    /// Gjul Bara's ladder: the die of each stage after the current one, and whether a remainder is played.
    fn ladder(&self) -> (Vec<u32>, bool) {
        self.state.ladder()
    }

    /// ``(termination, points)`` once the game is over, else None.
    fn outcome(&self) -> Option<(&'static str, (u32, u32))> {
        self.state.outcome.map(|o| (o.termination.word(), (o.points[0], o.points[1])))
    }

    /// Every roll's replies from each of ``positions`` (the side to roll first: (its board, the other's, its pins,
    /// the other's), each in its own numbering) in this state's game, Tabla or Tapa (one stage a turn): for each
    /// position the 21 rolls, high die from 1 to 6 and the low die from 1 to it, each (its weight in 36, how many
    /// rows it has); for each row, in that order, the features of the position after one legal play
    /// (`game::FEATURES` little-endian float32, the side just moved first), its points if it ends the game (the
    /// mover's first) and, with ``afters``, the position it leaves (the side just moved first, as given). A roll
    /// with no play has one row, the position as it stands (as if the side had played and left it). A search two
    /// rolls deep asks this once a level, in place of a call per position and roll.
    #[pyo3(signature = (positions, afters=true))]
    #[allow(clippy::type_complexity)]
    fn replies<'py>(
        &self,
        py: Python<'py>,
        positions: Vec<(u128, u128, u128, u128)>,
        afters: bool,
    ) -> PyResult<(Bound<'py, PyBytes>, Vec<(u32, u32)>, Vec<Option<(u32, u32)>>, Vec<(u128, u128, u128, u128)>)> {
        let game = one_stage(self.state.game())?;
        let mut rows: Vec<f32> = Vec::new();
        let (mut groups, mut outcomes, mut left) = (Vec::new(), Vec::new(), Vec::new());
        let mut row = [0f32; super::game::FEATURES];
        for (mine, theirs, my_pins, their_pins) in positions {
            let sides = Sides { boards: [mine, theirs], pins: [my_pins, their_pins] };
            let counts = each_reply(game, sides, |_, after, ended| {
                super::game::features(after, &mut row);
                rows.extend_from_slice(&row);
                outcomes.push(ended);
                if afters {
                    left.push(sides_tuple(after));
                }
            });
            groups.extend(counts);
        }
        let bytes: Vec<u8> = rows.iter().flat_map(|value| value.to_le_bytes()).collect();
        Ok((PyBytes::new(py, &bytes), groups, outcomes, left))
    }

    /// Set both sides' boards, pins and rolls made, before a roll (a position for tests and analysis).
    fn place(&mut self, boards: (u128, u128), pins: (u128, u128), rolls: (u32, u32)) -> PyResult<()> {
        if self.state.phase != Phase::Roll {
            return Err(PyValueError::new_err("a position is set while a roll is due"));
        }
        self.state.place([boards.0, boards.1], [pins.0, pins.1], [rolls.0, rolls.1]);
        Ok(())
    }
}

/// `game` when it is a game of one stage a turn (Tabla, Tapa), whose rolls' replies a search lists.
pub(crate) fn one_stage(game: Game) -> PyResult<Game> {
    if matches!(game.variant, Variant::GjulBara { .. }) {
        return Err(PyValueError::new_err("replies: a game of one stage a turn (tabla, tapa), not gjul-bara"));
    }
    Ok(game)
}

/// Sides as Python's tuple of them: (board, the other's board, pins, the other's pins).
pub(crate) fn sides_tuple(sides: &Sides) -> (u128, u128, u128, u128) {
    (sides.boards[0], sides.boards[1], sides.pins[0], sides.pins[1])
}

/// Every roll's replies from `sides` (the side to roll first) in `game`, a game of one stage a turn: `reply(roll,
/// after, ended)` for each legal play of each of the 21 rolls (high die 1..6, low die 1..high; `roll` counts them
/// from 0) with the sides it leaves (the side just moved first) and its points if it ends the game; a roll with
/// no play, once with the sides as they stand. Returns each roll's (weight in 36, replies).
pub(crate) fn each_reply(game: Game, sides: Sides, mut reply: impl FnMut(usize, &Sides, Option<(u32, u32)>)) -> Vec<(u32, u32)> {
    let mut counts = Vec::with_capacity(21);
    for high in 1..=6 {
        for low in 1..=high {
            let roll = counts.len();
            let mut state = State::new(game, Some(0), false);
            state.place(sides.boards, sides.pins, [0, 0]);
            state.roll(high, low);
            let count = match state.phase {
                Phase::Move => {
                    for &end in &state.ends {
                        let (after, ended) = after_play(game.variant, sides, end);
                        reply(roll, &after, ended.map(|o| (o.points[0], o.points[1])));
                    }
                    state.ends.len() as u32
                }
                _ => {
                    reply(roll, &sides, state.outcome.map(|o| (o.points[0], o.points[1])));
                    1
                }
            };
            counts.push((if high == low { 1 } else { 2 }, count));
        }
    }
    counts
}

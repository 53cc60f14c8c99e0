//! A Durak deal (`durak::State`) behind the Python State API: `DurakCore` is what a native
//! `referee.games.cards.durak` state holds (`NativeDurakState`), so that listing the legal actions, a decision and
//! a card of the shuffle cost one call into the core each. Actions cross as the Python engine's own `DurakAction`
//! objects, one per action made once (`durak_actions` gives their words in the order of the table Python makes
//! and hands to every core). The Python engine is the reference; `tests/games/test_native_durak.py` plays seeded
//! deals through both and compares every step.

use prost::Message;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use super::durak::{Action, Phase, Rules, State, BEAT, DONE, LEAD, PASS, SHOW, TAKE, THROW, TRANSFER};
use super::proto::legal_action::Detail;
use super::python::{durak_rules, DurakOptions};
use super::proto::{legal_actions_field, DurakAction, DurakPair, DurakSeat, DurakView, LegalAction};

/// `current_player` while a chance step is due, and once the deal is over (`referee.games._core`).
const CHANCE: i32 = -1;
const TERMINAL: i32 = -2;

/// Where each kind of action starts in the table: leads (13 ranks, 15 non-empty sets of suits), beats (attack
/// card, then the card beating it), transfers, shows and throws (one card), then take, pass and done.
const BEATS: usize = 13 * 15;
const SINGLES: usize = BEATS + 52 * 52;
const NO_CARDS: usize = SINGLES + 3 * 52;
const ACTIONS: usize = NO_CARDS + 3;

/// The kinds of one card and of none, in table order.
const SINGLE_KINDS: [u8; 3] = [TRANSFER, SHOW, THROW];
const NO_CARD_KINDS: [u8; 3] = [TAKE, PASS, DONE];

/// The place of a legal action in the table of every action.
fn index(action: Action) -> usize {
    let kind = action.kind();
    match kind {
        LEAD => {
            let mut cards = action.cards().peekable();
            let rank = *cards.peek().expect("a lead has cards") as usize % 13;
            let suits = cards.fold(0, |bits, card| bits | 1 << (card / 13));
            rank * 15 + suits - 1
        }
        BEAT => {
            let mut cards = action.cards();
            let (attack, defence) = (cards.next().unwrap_or(0), cards.next().unwrap_or(0));
            BEATS + attack as usize * 52 + defence as usize
        }
        _ => match SINGLE_KINDS.iter().position(|&single| single == kind) {
            Some(single) => SINGLES + single * 52 + action.cards().next().unwrap_or(0) as usize,
            None => NO_CARDS + NO_CARD_KINDS.iter().position(|&none| none == kind).unwrap_or(0),
        },
    }
}

/// The action at `place` of the table (the inverse of `index`).
fn action_at(place: usize) -> Action {
    if place < BEATS {
        let (rank, suits) = (place / 15, place % 15 + 1);
        let cards: Vec<u8> = (0..4).filter(|suit| suits >> suit & 1 == 1).map(|suit| (suit * 13 + rank) as u8).collect();
        Action::new(LEAD, &cards)
    } else if place < SINGLES {
        let pair = place - BEATS;
        Action::new(BEAT, &[(pair / 52) as u8, (pair % 52) as u8])
    } else if place < NO_CARDS {
        let (single, card) = ((place - SINGLES) / 52, (place - SINGLES) % 52);
        Action::new(SINGLE_KINDS[single], &[card as u8])
    } else {
        Action::new(NO_CARD_KINDS[place - NO_CARDS], &[])
    }
}

/// The words of the kinds of action, by kind (`_KIND_NAMES` of the Python engine).
const KIND_NAMES: [&str; 8] = ["lead", "beat", "transfer", "show", "take", "throw", "pass", "done"];

/// A decision's legal actions as the core listed them (``DurakCore.listing``), whose wire records it writes when
/// asked: a snapshot, so the records stay those of the list it was taken with.
#[pyclass(module = "kafana_native.engine", frozen)]
pub struct DurakListing {
    legal: Vec<Action>,
}

#[pymethods]
impl DurakListing {
    /// The actions as an ActRequest's ``legal_actions`` records, ids 0.. in order: each with its notation (``beat
    /// 9C with TC``, ``lead 9C 9D``, ``take``) and, with ``detail``, its kind and cards (the bytes
    /// ``referee.wire.act_request_bytes`` writes for them).
    fn records<'py>(&self, py: Python<'py>, detail: bool) -> Bound<'py, PyBytes> {
        let mut records = Vec::with_capacity(self.legal.len() * 32);
        for (id, &action) in self.legal.iter().enumerate() {
            let kind = KIND_NAMES[action.kind() as usize];
            let cards: Vec<String> = action.cards().map(card_text).collect();
            let notation = if action.kind() == BEAT {
                format!("beat {} with {}", cards[0], cards[1])
            } else {
                std::iter::once(kind.to_string()).chain(cards.iter().cloned()).collect::<Vec<_>>().join(" ")
            };
            let durak = detail.then(|| DurakAction { kind: kind.to_string(), cards });
            let record = LegalAction { id: id as i32, notation, detail: durak.map(Detail::Durak) };
            prost::encoding::message::encode(legal_actions_field(), &record, &mut records);
        }
        PyBytes::new(py, &records)
    }
}

/// A card as the wire writes it (`9C`, `TD`, `AS`: rank, then suit).
fn card_text(card: u8) -> String {
    const RANKS: &[u8; 13] = b"23456789TJQKA";
    const SUITS: &[u8; 4] = b"CDHS";
    String::from_utf8(vec![RANKS[card as usize % 13], SUITS[card as usize / 13]]).expect("ASCII")
}

/// The cards of a bitmask in canonical order (ascending).
fn cards_in(mut mask: u64) -> Vec<u8> {
    let mut cards = Vec::with_capacity(mask.count_ones() as usize);
    while mask != 0 {
        cards.push(mask.trailing_zeros() as u8);
        mask &= mask - 1;
    }
    cards
}

/// Every action's words (kind, cards) in table order: Python makes the table of `DurakAction`s from them.
#[pyfunction]
pub fn durak_actions() -> Vec<(u8, Vec<u8>)> {
    (0..ACTIONS).map(|place| (action_at(place).kind(), action_at(place).cards().collect())).collect()
}

/// One Durak deal in progress (`DurakState`'s twin), with its legal actions once listed.
#[pyclass(module = "kafana_native.engine")]
pub struct DurakCore {
    state: State,
    /// The table of every action as Python objects (from `durak_actions`).
    actions: Py<PyTuple>,
    legal: Vec<Action>,
    listed: bool,
}

impl DurakCore {
    fn listed(&mut self) -> &[Action] {
        if !self.listed {
            self.state.legal(&mut self.legal);
            self.listed = true;
        }
        &self.legal
    }

    fn player(&self) -> i32 {
        match self.state.phase {
            Phase::Deal | Phase::Lot => CHANCE,
            Phase::Over => TERMINAL,
            _ => self.state.to_act() as i32,
        }
    }

    fn moved(&mut self) -> i32 {
        self.listed = false;
        self.player()
    }
}

#[pymethods]
impl DurakCore {
    /// A deal of `rules` (``Durak.core_rules``) before the shuffle, `first_attacker` attacking first
    /// when given (a session's later deal); `actions` is the table of every action, made from `durak_actions`.
    #[new]
    fn new(rules: DurakOptions, first_attacker: Option<usize>, actions: Bound<PyTuple>) -> PyResult<DurakCore> {
        let rules: Rules = durak_rules(rules)?;
        if first_attacker.is_some_and(|seat| seat >= rules.seats) {
            return Err(PyValueError::new_err("the first attacker is not a seat of this deal"));
        }
        if actions.len() != ACTIONS {
            return Err(PyValueError::new_err(format!("the table of actions has {ACTIONS} entries")));
        }
        let state = State::new(rules, first_attacker);
        Ok(DurakCore { state, actions: actions.unbind(), legal: Vec::with_capacity(64), listed: false })
    }

    /// A deal at the start of bout number `bout`, `attacker` to lead, with `hands` (card masks per seat), the
    /// `stock` in draw order, the `trump_card` and the trumps `shown` by earlier transfers (``Durak.position``'s
    /// twin; every other card discarded).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn at_bout(
        rules: DurakOptions,
        actions: Bound<PyTuple>,
        hands: Vec<u64>,
        stock: Vec<u8>,
        trump_card: i8,
        shown: u64,
        attacker: usize,
        bout: u32,
    ) -> PyResult<DurakCore> {
        let mut core = DurakCore::new(rules, None, actions)?;
        core.state = State::at_bout(core.state.rules, &hands, &stock, trump_card, shown, attacker, bout)
            .ok_or_else(|| PyValueError::new_err("not a position of this deal: the seats, attacker or trump"))?;
        Ok(core)
    }

    /// An independent copy.
    fn copy(&self, py: Python<'_>) -> DurakCore {
        DurakCore {
            state: self.state.clone(),
            actions: self.actions.clone_ref(py),
            legal: self.legal.clone(),
            listed: self.listed,
        }
    }

    /// The seat to act, -1 while a chance step is due, -2 at the end.
    #[getter]
    fn current_player(&self) -> i32 {
        self.player()
    }

    /// How many cards the shuffle has still to place (0 outside the shuffle).
    fn shuffle_left(&self) -> usize {
        if self.state.phase == Phase::Deal {
            self.state.unplaced.len()
        } else {
            0
        }
    }

    /// The `index`-th card not yet placed, in the order the Python state lists them.
    fn unplaced(&self, index: usize) -> Option<u8> {
        self.state.unplaced.get(index).copied()
    }

    /// Place `card` next in the shuffle (``deck``) or draw `seat` by lot (not ``deck``); the seat to act after,
    /// or None when that is not a chance outcome here.
    fn chance(&mut self, deck: bool, value: i64) -> Option<i32> {
        let index = match (self.state.phase, deck) {
            (Phase::Deal, true) => self.state.unplaced.iter().position(|&card| card as i64 == value)?,
            (Phase::Lot, false) if (0..self.state.rules.seats as i64).contains(&value) => value as usize,
            _ => return None,
        };
        self.state.chance(index);
        Some(self.moved())
    }

    /// The legal actions (the table's objects), sorted as the Python engine sorts them; a new list each call.
    fn legal<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let actions = self.actions.bind(py).clone();
        let listed = self.listed();
        PyList::new(py, listed.iter().map(|&action| actions.get_item(index(action)).expect("a table entry")))
    }

    /// The legal actions listed now, as a snapshot that writes their wire records (in the order of ``legal``).
    fn listing(&mut self) -> DurakListing {
        DurakListing { legal: self.listed().to_vec() }
    }

    /// Play `action` (a ``(kind, cards)`` tuple such as a ``DurakAction``) if it is legal; the seat to act after,
    /// or None when it is not legal here.
    fn apply(&mut self, action: &Bound<PyAny>) -> Option<i32> {
        let actions = self.actions.bind(action.py()).clone();
        let legal = self.listed();
        let same = |&listed: &Action| actions.get_item(index(listed)).is_ok_and(|entry| entry.is(action));
        let found = match legal.iter().position(same) {
            Some(at) => legal[at],
            None => {
                let (kind, cards): (u8, Vec<u8>) = action.extract().ok()?;
                if cards.len() > 4 || cards.iter().any(|&card| card >= 52) {
                    return None;
                }
                let wanted = Action::new(kind, &cards);
                *legal.iter().find(|&&listed| listed == wanted)?
            }
        };
        self.state.apply(found);
        Some(self.moved())
    }

    /// ``seat``'s view at a decision of a bout (``lead``, ``defend``, ``throw_in``, ``take_throw``) as
    /// ``DurakState.view`` makes it: ``(variant, hand, seats, (trump_suit, trump_card, trump_in_stock, stock),
    /// table, discard, phase, (to_act, attacker, defender, throw_room, bout), shown, record)``, each seat as
    /// ``(hand_size, place, role, known, team)`` and ``record`` the bytes of ``kafana.v1.DurakView`` holding those
    /// fields; None outside a bout.
    fn view<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let s = &self.state;
        let n = s.rules.seats;
        if seat >= n {
            return Err(PyIndexError::new_err(format!("the seats are 0 to {}, not {seat}", n - 1)));
        }
        let phase = match s.phase {
            Phase::Lead => "lead",
            Phase::Defend => "defend",
            Phase::ThrowIn => "throw_in",
            Phase::TakeThrow => "take_throw",
            Phase::Deal | Phase::Lot | Phase::Over => return Ok(None),
        };
        let variant = if s.rules.transfers { "perevodnoy" } else { "podkidnoy" };
        let (throwers, count) = s.throwers();
        let role = |other: usize| match other {
            _ if other == s.defender => "defender",
            _ if other == s.attacker => "attacker",
            _ if throwers[..count].contains(&other) => "thrower",
            _ => "",
        };
        let team = |other: usize| if s.rules.teams { (other % 2) as i32 } else { -1 };
        let hand = cards_in(s.hands[seat]);
        let discard = cards_in(s.discard);
        let shown = cards_in(s.shown);
        let trump_in_stock = s.stock.back().is_some_and(|&last| last as i8 == s.trump_card);
        let throw_room = s.cap().saturating_sub(s.table.len());
        let to_act = s.to_act();
        let texts = |cards: &[u8]| cards.iter().map(|&card| card_text(card)).collect::<Vec<_>>();
        let record = DurakView {
            variant: variant.to_string(),
            hand: texts(&hand),
            seats: (0..n)
                .map(|other| DurakSeat {
                    hand_size: s.hands[other].count_ones() as i32,
                    place: s.places[other] as i32,
                    role: role(other).to_string(),
                    known: texts(&cards_in(s.known[other])),
                    team: team(other),
                })
                .collect(),
            trump_suit: if s.trump >= 0 { ["C", "D", "H", "S"][s.trump as usize].to_string() } else { String::new() },
            trump_card: if s.trump_card >= 0 { card_text(s.trump_card as u8) } else { String::new() },
            trump_in_stock,
            stock: s.stock.len() as i32,
            table: s
                .table
                .iter()
                .map(|&(attack, defence)| DurakPair {
                    attack: card_text(attack),
                    defence: if defence >= 0 { card_text(defence as u8) } else { String::new() },
                })
                .collect(),
            discard: texts(&discard),
            phase: phase.to_string(),
            to_act: to_act as i32,
            attacker: s.attacker as i32,
            defender: s.defender as i32,
            throw_room: throw_room as i32,
            bout: s.bout as i32,
            shown: texts(&shown),
            ..Default::default() // a session's fields (deal, deals, duraks) follow on the wire, written by referee.wire
        };
        let seats = PyTuple::new(
            py,
            (0..n).map(|other| {
                (
                    s.hands[other].count_ones(),
                    s.places[other],
                    role(other),
                    PyTuple::new(py, cards_in(s.known[other])).expect("a tuple of ints"),
                    team(other),
                )
                    .into_pyobject(py)
                    .expect("a tuple")
            }),
        )?;
        let table = PyTuple::new(py, s.table.iter().map(|&(attack, defence)| (attack as i8, defence)))?;
        let fields = (
            variant,
            PyTuple::new(py, hand)?,
            seats,
            (s.trump, s.trump_card, trump_in_stock, s.stock.len()),
            table,
            PyTuple::new(py, discard)?,
            phase,
            (to_act, s.attacker, s.defender, throw_room, s.bout),
            PyTuple::new(py, shown)?,
            PyBytes::new(py, &record.encode_to_vec()),
        );
        Ok(Some(fields.into_pyobject(py)?))
    }

    /// The position as the Python state's attributes hold it, by their names (``_hands``, ``_phase``, …;
    /// attacker and defender -1 outside a bout).
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.state;
        let n = s.rules.seats;
        let in_play = !matches!(s.phase, Phase::Deal | Phase::Lot | Phase::Over);
        let phase = match s.phase {
            Phase::Deal => "deal",
            Phase::Lot => "lot",
            Phase::Lead => "lead",
            Phase::Defend => "defend",
            Phase::ThrowIn => "throw_in",
            Phase::TakeThrow => "take_throw",
            Phase::Over => "over",
        };
        let seat = |seat: usize| if in_play { seat as i32 } else { -1 };
        let position = PyDict::new(py);
        position.set_item("_phase", phase)?;
        position.set_item("_hands", s.hands[..n].to_vec())?;
        position.set_item("_known", s.known[..n].to_vec())?;
        position.set_item("_places", s.places[..n].to_vec())?;
        position.set_item("_stock", s.stock.iter().copied().collect::<Vec<u8>>())?;
        position.set_item("_trump_card", s.trump_card)?;
        position.set_item("_trump", s.trump)?;
        position.set_item("_table", s.table.iter().map(|&(attack, defence)| vec![attack as i8, defence]).collect::<Vec<_>>())?;
        position.set_item("_discard", s.discard)?;
        position.set_item("_shown", s.shown)?;
        position.set_item("_attacker", seat(s.attacker))?;
        position.set_item("_defender", seat(s.defender))?;
        position.set_item("_bout", s.bout)?;
        position.set_item("_h0", s.h0)?;
        position.set_item("_unplaced", s.unplaced.clone())?;
        position.set_item("_termination", s.termination)?;
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_place_is_the_index_of_its_action() {
        for place in 0..ACTIONS {
            assert_eq!(index(action_at(place)), place);
        }
    }
}

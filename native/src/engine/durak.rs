//! Durak as a whole state machine, for random playouts inside the core and behind the Python State API
//! (`durak_core.rs`): the twin of `referee/games/cards/durak.py` (a single deal, every option; a session's later
//! deal starts with its first attacker), giving the same legal actions in the same order, the same drawing, places
//! and points, so that the same random stream plays the same games.
//!
//! Cards are 0..51 (suit times 13 plus rank 2..A as 0..12), hands and piles bitmasks of them.

use super::game::SplitMix64;

const HAND: u32 = 6;
const NO_CARD: i8 = -1;
pub(crate) const LEAD: u8 = 0;
pub(crate) const BEAT: u8 = 1;
pub(crate) const TRANSFER: u8 = 2;
pub(crate) const SHOW: u8 = 3;
pub(crate) const TAKE: u8 = 4;
pub(crate) const THROW: u8 = 5;
pub(crate) const PASS: u8 = 6;
pub(crate) const DONE: u8 = 7;

/// Every option of a single deal (`Durak` of the Python engine).
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub seats: usize,
    pub teams: bool,
    pub transfers: bool,
    /// 6 (36 cards), 9 (24) or 2 (52).
    pub lowest_rank: u32,
    pub bout_limit: usize,
    /// Already at most `bout_limit`.
    pub first_bout_limit: usize,
    pub multi_card_lead: bool,
    pub transfer_in_first_bout: bool,
    pub show_trump: bool,
    pub redeal: bool,
}

impl Rules {
    fn deck(&self) -> Vec<u8> {
        (0..4u32).flat_map(|suit| (self.lowest_rank..15).map(move |rank| (suit * 13 + rank - 2) as u8)).collect()
    }
}

/// A decision packed in one number that sorts as the Python engine's named tuples do (the kind, then the cards,
/// a shorter list first): the kind in bits 24.., then up to four cards, each as card + 1 in six bits (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Action(u32);

impl Action {
    pub(crate) fn new(kind: u8, cards: &[u8]) -> Action {
        let packed = cards.iter().enumerate().fold(0, |key, (index, &card)| key | (card as u32 + 1) << (18 - 6 * index));
        Action((kind as u32) << 24 | packed)
    }

    pub(crate) fn kind(self) -> u8 {
        (self.0 >> 24) as u8
    }

    /// Card `index` of the action (which must have it).
    pub(crate) fn card(self, index: usize) -> u8 {
        ((self.0 >> (18 - 6 * index)) & 63) as u8 - 1
    }

    pub(crate) fn cards(self) -> impl Iterator<Item = u8> {
        (0..4).map(move |index| (self.0 >> (18 - 6 * index)) & 63).take_while(|&code| code != 0).map(|code| code as u8 - 1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Deal,
    Lot,
    Lead,
    Defend,
    ThrowIn,
    TakeThrow,
    Over,
}

fn suit_mask(suit: u32) -> u64 {
    ((1u64 << 13) - 1) << (13 * suit)
}

/// The four cards of a rank (0: the twos … 12: the aces).
fn rank_mask(rank_index: u32) -> u64 {
    (1 | 1 << 13 | 1 << 26 | 1 << 39) << rank_index
}

/// The cards of the same suit above `card`.
fn higher(card: u8) -> u64 {
    suit_mask(card as u32 / 13) & !((2u64 << card) - 1)
}

fn cards_of(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let card = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            card
        })
    })
}

/// One deal of Durak.
#[derive(Clone)]
pub struct State {
    pub(crate) rules: Rules,
    order: Vec<u8>,
    pub(crate) unplaced: Vec<u8>,
    pub(crate) phase: Phase,
    pub(crate) hands: [u64; 6],
    pub(crate) known: [u64; 6],
    pub(crate) places: [u32; 6],
    /// Drawn from the front; the turned trump is the last card while it is there.
    pub(crate) stock: std::collections::VecDeque<u8>,
    pub(crate) trump_card: i8,
    pub(crate) trump: i32,
    pub(crate) table: Vec<(u8, i8)>,
    pub(crate) discard: u64,
    pub(crate) shown: u64,
    pub(crate) attacker: usize,
    pub(crate) defender: usize,
    leader: usize,
    virtual_seat: usize,
    pub(crate) h0: usize,
    pub(crate) bout: u32,
    /// The seats polled for throw-ins, in order (the first `polled`).
    poll: [usize; 6],
    polled: usize,
    poll_at: usize,
    pub(crate) termination: &'static str,
    /// A session's later deal: who attacks first (else the lowest trump, or the lot).
    first_attacker: Option<usize>,
}

/// How a finished deal ended: its word and each seat's points (the seats finishing worse).
pub struct Ending {
    pub termination: &'static str,
    pub points: Vec<u32>,
}

impl State {
    /// A deal before the shuffle; `first_attacker` attacks first (a session's later deal) when given.
    pub fn new(rules: Rules, first_attacker: Option<usize>) -> State {
        let mut state = State {
            rules,
            order: Vec::new(),
            unplaced: Vec::new(),
            phase: Phase::Deal,
            hands: [0; 6],
            known: [0; 6],
            places: [0; 6],
            stock: Default::default(),
            trump_card: NO_CARD,
            trump: -1,
            table: Vec::new(),
            discard: 0,
            shown: 0,
            attacker: 0,
            defender: 0,
            leader: 0,
            virtual_seat: 0,
            h0: 0,
            bout: 0,
            poll: [0; 6],
            polled: 0,
            poll_at: 0,
            termination: "",
            first_attacker,
        };
        state.reset();
        state
    }

    /// Before the shuffle (also a redeal when nobody was dealt a trump).
    fn reset(&mut self) {
        self.order.clear();
        self.unplaced = self.rules.deck();
        self.phase = Phase::Deal;
        self.hands = [0; 6];
        self.known = [0; 6];
        self.places = [0; 6];
        self.stock.clear();
        self.trump_card = NO_CARD;
        self.trump = -1;
        self.table.clear();
        self.discard = 0;
        self.shown = 0;
        self.virtual_seat = 0;
        self.h0 = 0;
        self.bout = 0;
        self.polled = 0;
        self.poll_at = 0;
        self.termination = "";
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How many chance outcomes there are now (all equally likely), 0 at a decision.
    pub fn chances(&self) -> usize {
        match self.phase {
            Phase::Deal => self.unplaced.len(),
            Phase::Lot => self.rules.seats,
            _ => 0,
        }
    }

    /// Play chance outcome `index` of those listed (the shuffle's next card, or the lot's seat).
    pub fn chance(&mut self, index: usize) {
        if self.phase == Phase::Deal {
            let card = self.unplaced.remove(index);
            self.order.push(card);
            if self.unplaced.is_empty() {
                self.deal();
            }
        } else {
            self.start_game(index);
        }
    }

    fn deal(&mut self) {
        let n = self.rules.seats;
        let dealt = HAND as usize * n;
        for (i, &card) in self.order[..dealt].iter().enumerate() {
            self.hands[i % n] |= 1u64 << card;
        }
        if dealt < self.order.len() {
            self.trump_card = self.order[dealt] as i8;
            self.stock = self.order[dealt + 1..].iter().copied().collect();
            self.stock.push_back(self.order[dealt]);
        } else {
            self.trump_card = self.order[dealt - 1] as i8;
            self.known[(dealt - 1) % n] |= 1u64 << self.trump_card;
        }
        self.trump = self.trump_card as i32 / 13;
        if let Some(attacker) = self.first_attacker {
            self.start_game(attacker);
            return;
        }
        for rank in 2..15 {
            let card = self.trump * 13 + rank - 2;
            if let Some(holder) = (0..n).find(|&s| self.hands[s] >> card & 1 == 1) {
                self.known[holder] |= 1u64 << card;
                self.start_game(holder);
                return;
            }
        }
        if self.rules.redeal {
            self.reset();
        } else {
            self.phase = Phase::Lot;
        }
    }

    fn start_game(&mut self, attacker: usize) {
        self.virtual_seat = attacker;
        self.start_bout(attacker);
    }

    fn active(&self, seat: usize) -> bool {
        self.places[seat] == 0
    }

    fn next_active(&self, seat: usize) -> usize {
        let n = self.rules.seats;
        (1..=n).map(|step| (seat + step) % n).find(|&other| self.active(other)).unwrap_or(seat)
    }

    fn plays_for(&self, virtual_seat: usize) -> usize {
        let seat = virtual_seat % 4;
        if self.active(seat) {
            seat
        } else {
            (seat + 2) % 4
        }
    }

    fn next_defender(&self) -> usize {
        if self.rules.teams {
            self.plays_for(self.virtual_seat + 2)
        } else {
            self.next_active(self.defender)
        }
    }

    /// The seats that may throw in, in poll order: the main attacker, then clockwise from the defender's left.
    pub(crate) fn throwers(&self) -> ([usize; 6], usize) {
        let n = self.rules.seats;
        let d = self.defender;
        let mut seen = [0usize; 6];
        let mut count = 0;
        if n == 2 {
            if self.places[self.attacker] == 0 {
                seen[0] = self.attacker;
                count = 1;
            }
            return (seen, count);
        }
        for seat in std::iter::once(self.attacker).chain((1..n).map(|step| (d + step) % n)) {
            if seat == d || seen[..count].contains(&seat) || !self.active(seat) {
                continue;
            }
            if self.rules.teams && seat % 2 == d % 2 {
                continue;
            }
            seen[count] = seat;
            count += 1;
        }
        (seen, count)
    }

    fn start_bout(&mut self, attacker: usize) {
        self.bout += 1;
        self.attacker = attacker;
        self.leader = attacker;
        self.defender =
            if self.rules.teams { self.plays_for(self.virtual_seat + 1) } else { self.next_active(attacker) };
        self.h0 = self.hands[self.defender].count_ones() as usize;
        self.table.clear();
        self.phase = Phase::Lead;
    }

    fn limit(&self) -> usize {
        if self.bout == 1 {
            self.rules.first_bout_limit
        } else {
            self.rules.bout_limit
        }
    }

    /// The most attack cards this bout may hold: min(L, h0).
    pub(crate) fn cap(&self) -> usize {
        self.limit().min(self.h0)
    }

    fn current(&self) -> usize {
        match self.phase {
            Phase::Lead => self.attacker,
            Phase::Defend => self.defender,
            _ => self.poll[self.poll_at],
        }
    }

    /// Every legal decision, sorted as the Python engine sorts them.
    pub fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Lead => self.leads(out),
            Phase::Defend => self.defences(out),
            Phase::ThrowIn => {
                self.throws(out);
                out.push(Action::new(PASS, &[]));
            }
            Phase::TakeThrow => {
                self.throws(out);
                out.push(Action::new(DONE, &[]));
            }
            _ => {}
        }
    }

    fn leads(&self, out: &mut Vec<Action>) {
        let most = if self.rules.multi_card_lead { self.cap() } else { 1 };
        let hand = self.hands[self.attacker];
        for rank in self.rules.lowest_rank..15 {
            let mut group = [0u8; 4];
            let mut size = 0;
            for card in cards_of(hand & rank_mask(rank - 2)) {
                group[size] = card;
                size += 1;
            }
            for bits in 1u32..1 << size {
                if bits.count_ones() as usize > most {
                    continue;
                }
                let mut lead = [0u8; 4];
                let mut len = 0;
                for (index, &card) in group[..size].iter().enumerate() {
                    if bits >> index & 1 == 1 {
                        lead[len] = card;
                        len += 1;
                    }
                }
                out.push(Action::new(LEAD, &lead[..len]));
            }
        }
        out.sort_unstable();
    }

    fn defences(&self, out: &mut Vec<Action>) {
        let trump = self.trump as u32;
        let hand = self.hands[self.defender];
        let trumps = hand & suit_mask(trump);
        for &(attack, defence) in &self.table {
            if defence != NO_CARD {
                continue;
            }
            let beaters = hand & higher(attack) | if attack as u32 / 13 != trump { trumps } else { 0 };
            for card in cards_of(beaters) {
                out.push(Action::new(BEAT, &[attack, card]));
            }
        }
        out.push(Action::new(TAKE, &[]));
        let open = self.table.iter().all(|&(_, defence)| defence == NO_CARD);
        if self.rules.transfers && (self.bout > 1 || self.rules.transfer_in_first_bout) && open {
            let rank = self.table[0].0 as u32 % 13;
            let count = self.table.len();
            let target = self.next_defender();
            let room = self.hands[target].count_ones() as usize;
            if target != self.defender {
                for card in cards_of(hand & rank_mask(rank)) {
                    if count < self.limit() && room > count {
                        out.push(Action::new(TRANSFER, &[card]));
                    }
                    if self.rules.show_trump && card as u32 / 13 == trump && self.shown >> card & 1 == 0 && room >= count {
                        out.push(Action::new(SHOW, &[card]));
                    }
                }
            }
        }
        out.sort_unstable();
    }

    fn throws(&self, out: &mut Vec<Action>) {
        if self.table.len() >= self.cap() {
            return;
        }
        let mut ranks = 0u64;
        for &(attack, defence) in &self.table {
            ranks |= rank_mask(attack as u32 % 13);
            if defence != NO_CARD {
                ranks |= rank_mask(defence as u32 % 13);
            }
        }
        for card in cards_of(self.hands[self.poll[self.poll_at]] & ranks) {
            out.push(Action::new(THROW, &[card]));
        }
    }

    /// Play a legal decision.
    pub fn apply(&mut self, action: Action) {
        let seat = self.current();
        let played: u64;
        match action.kind() {
            LEAD => {
                played = action.cards().fold(0, |mask, card| mask | 1u64 << card);
                self.table.clear();
                self.table.extend(action.cards().map(|card| (card, NO_CARD)));
                self.phase = Phase::Defend;
            }
            BEAT => {
                let (attack, defence) = (action.card(0), action.card(1));
                played = 1u64 << defence;
                let mut uncovered = false;
                for pair in self.table.iter_mut() {
                    if pair.0 == attack {
                        pair.1 = defence as i8;
                    } else if pair.1 == NO_CARD {
                        uncovered = true;
                    }
                }
                if !uncovered {
                    self.hands[seat] &= !played;
                    self.known[seat] &= !played;
                    self.covered();
                    return;
                }
            }
            TRANSFER | SHOW => {
                let card = action.card(0);
                if action.kind() == TRANSFER {
                    played = 1u64 << card;
                    self.table.push((card, NO_CARD));
                } else {
                    played = 0;
                    self.shown |= 1u64 << card;
                    self.known[seat] |= 1u64 << card;
                }
                let target = self.next_defender();
                self.attacker = seat;
                self.defender = target;
                self.virtual_seat += 1;
                self.h0 = self.hands[target].count_ones() as usize;
            }
            TAKE => {
                self.phase = Phase::TakeThrow;
                self.start_poll();
                return;
            }
            THROW => {
                played = 1u64 << action.card(0);
                self.table.push((action.card(0), NO_CARD));
                if self.phase == Phase::ThrowIn {
                    self.phase = Phase::Defend;
                }
            }
            _ => {
                self.poll_at += 1;
                self.skip_empty();
                return;
            }
        }
        self.hands[seat] &= !played;
        self.known[seat] &= !played;
    }

    fn covered(&mut self) {
        if self.hands[self.defender] == 0 || self.table.len() >= self.cap() {
            self.end_bout(false);
        } else {
            self.phase = Phase::ThrowIn;
            self.start_poll();
        }
    }

    fn start_poll(&mut self) {
        (self.poll, self.polled) = self.throwers();
        self.poll_at = 0;
        self.skip_empty();
    }

    fn skip_empty(&mut self) {
        while self.poll_at < self.polled && self.hands[self.poll[self.poll_at]] == 0 {
            self.poll_at += 1;
        }
        if self.poll_at == self.polled {
            let taken = self.phase == Phase::TakeThrow;
            self.end_bout(taken);
        }
    }

    fn end_bout(&mut self, taken: bool) {
        let n = self.rules.seats;
        let d = self.defender;
        let table = self.table.iter().fold(0u64, |mask, &(attack, defence)| {
            mask | 1u64 << attack | if defence != NO_CARD { 1u64 << defence } else { 0 }
        });
        self.table.clear();
        if taken {
            self.hands[d] |= table;
            self.known[d] |= table;
            self.virtual_seat += 2;
        } else {
            self.discard |= table;
            self.virtual_seat += 1;
        }
        if !self.stock.is_empty() {
            let leader = self.leader;
            let mut order = [0usize; 6];
            let mut count = 0;
            if n == 2 {
                order[..2].copy_from_slice(&[1 - d, d]);
                count = 2;
            } else {
                for seat in std::iter::once(leader).chain((1..n).map(|step| (leader + step) % n)) {
                    if seat != d {
                        order[count] = seat;
                        count += 1;
                    }
                }
                order[count] = d;
                count += 1;
            }
            for &seat in &order[..count] {
                while self.hands[seat].count_ones() < HAND {
                    let Some(card) = self.stock.pop_front() else { break };
                    self.hands[seat] |= 1u64 << card;
                    if card as i8 == self.trump_card {
                        self.known[seat] |= 1u64 << card;
                    }
                }
            }
        }
        if self.stock.is_empty() {
            let place = 1 + self.places[..n].iter().filter(|&&p| p != 0).count() as u32;
            for seat in 0..n {
                if self.places[seat] == 0 && self.hands[seat] == 0 {
                    self.places[seat] = place; // every seat out in this bout shares its place
                }
            }
            if self.finished() {
                return;
            }
        }
        if self.rules.teams {
            let next = self.plays_for(self.virtual_seat);
            self.start_bout(next);
        } else {
            let candidate = if taken { self.next_active(d) } else { d };
            let next = if self.active(candidate) { candidate } else { self.next_active(candidate) };
            self.start_bout(next);
        }
    }

    /// End the deal when at most one seat (team games: one team) still holds cards.
    fn finished(&mut self) -> bool {
        let n = self.rules.seats;
        if self.rules.teams {
            let live = [0, 1].map(|team| (0..n).any(|seat| seat % 2 == team && self.active(seat)));
            if live[0] && live[1] {
                return false;
            }
            for seat in 0..n {
                self.places[seat] = if live[seat % 2] { 2 } else { 1 };
            }
            self.termination = if live[0] || live[1] { "durak" } else { "no_durak" };
        } else {
            let mut active = (0..n).filter(|&seat| self.active(seat));
            let last = active.next();
            if active.next().is_some() {
                return false;
            }
            if let Some(last) = last {
                self.places[last] = n as u32;
                self.termination = "durak";
            } else {
                self.termination = "no_durak";
            }
        }
        self.phase = Phase::Over;
        true
    }

    pub fn ending(&self) -> Ending {
        let n = self.rules.seats;
        let places = &self.places[..n];
        let points = places.iter().map(|mine| places.iter().filter(|other| *other > mine).count() as u32).collect();
        Ending { termination: self.termination, points }
    }
}

/// A position as a search bot guesses it: the public state of a seat's view and one guess of the hidden cards
/// (the twin of `Durak.from_view`).
pub struct Guess<'a> {
    pub hands: &'a [u64],
    pub known: &'a [u64],
    pub places: &'a [u32],
    pub stock: &'a [u8],
    pub trump_card: i8,
    pub table: &'a [(u8, i8)],
    pub discard: u64,
    pub shown: u64,
    /// ``lead``, ``defend``, ``throw_in`` or ``take_throw``.
    pub phase: &'a str,
    pub bout: u32,
    pub attacker: usize,
    pub defender: usize,
    pub throw_room: usize,
    pub to_act: usize,
}

impl State {
    /// The state of a guess; None when the guess is not a position of this game (a phase outside a bout, a seat
    /// to act that is not polled).
    pub fn from_guess(rules: Rules, guess: &Guess) -> Option<State> {
        let n = rules.seats;
        if guess.hands.len() != n || guess.known.len() != n || guess.places.len() != n || guess.attacker >= n
            || guess.defender >= n
        {
            return None;
        }
        let mut state = State::new(rules, None);
        state.unplaced.clear();
        state.order = rules.deck();
        state.hands[..n].copy_from_slice(guess.hands);
        state.known[..n].copy_from_slice(guess.known);
        state.places[..n].copy_from_slice(guess.places);
        state.stock = guess.stock.iter().copied().collect();
        state.trump_card = guess.trump_card;
        state.trump = guess.trump_card as i32 / 13;
        state.table = guess.table.to_vec();
        state.discard = guess.discard;
        state.shown = guess.shown;
        state.phase = match guess.phase {
            "lead" => Phase::Lead,
            "defend" => Phase::Defend,
            "throw_in" => Phase::ThrowIn,
            "take_throw" => Phase::TakeThrow,
            _ => return None,
        };
        state.bout = guess.bout;
        state.attacker = guess.attacker;
        state.leader = guess.attacker;
        state.virtual_seat = guess.attacker;
        state.defender = guess.defender;
        state.h0 = guess.throw_room + guess.table.len();
        if matches!(state.phase, Phase::ThrowIn | Phase::TakeThrow) {
            (state.poll, state.polled) = state.throwers();
            state.poll_at = state.poll[..state.polled].iter().position(|&seat| seat == guess.to_act)?;
        }
        Some(state)
    }

    /// A deal at the start of bout number `bout`, `attacker` to lead, the trumps `shown` by earlier transfers
    /// (the twin of `Durak.position`): every card of the deck not in a hand or the stock is discarded, and seats without cards are out when the stock is
    /// empty. None when the seats do not match the rules.
    #[allow(clippy::too_many_arguments)]
    pub fn at_bout(
        rules: Rules,
        hands: &[u64],
        stock: &[u8],
        trump_card: i8,
        shown: u64,
        attacker: usize,
        bout: u32,
    ) -> Option<State> {
        let n = rules.seats;
        if hands.len() != n || attacker >= n || !(0..52).contains(&trump_card) || bout == 0 {
            return None;
        }
        let mut state = State::new(rules, None);
        state.unplaced.clear();
        state.order = rules.deck();
        state.hands[..n].copy_from_slice(hands);
        state.stock = stock.iter().copied().collect();
        state.trump_card = trump_card;
        state.trump = trump_card as i32 / 13;
        state.shown = shown;
        let placed = hands.iter().fold(0u64, |mask, hand| mask | hand) | stock.iter().fold(0u64, |mask, &card| mask | 1u64 << card);
        state.discard = state.order.iter().fold(0u64, |mask, &card| mask | 1u64 << card) & !placed;
        if stock.is_empty() {
            for (place, &hand) in state.places[..n].iter_mut().zip(hands) {
                *place = u32::from(hand == 0);
            }
        }
        state.bout = bout - 1;
        state.start_game(attacker);
        Some(state)
    }

    /// The seat to decide (the state must be at a decision).
    pub fn to_act(&self) -> usize {
        self.current()
    }
}

/// One finished random deal: how it ended, each seat's points, the decisions made.
pub struct Playout {
    pub ending: Ending,
    pub decisions: u32,
}

/// `count` deals played to their end with uniformly random decisions and chance, all from one SplitMix64 stream
/// seeded with `seed`: the twin of `referee.playouts.python_playouts` for Durak.
pub fn playouts(rules: Rules, count: usize, seed: u64) -> Vec<Playout> {
    let mut rng = SplitMix64::new(seed);
    let mut legal = Vec::with_capacity(64);
    (0..count)
        .map(|_| {
            let mut state = State::new(rules, None);
            let mut decisions = 0;
            while !state.is_over() {
                let chances = state.chances();
                if chances > 0 {
                    state.chance(rng.below(chances as u64) as usize);
                    continue;
                }
                state.legal(&mut legal);
                let pick = legal[rng.below(legal.len() as u64) as usize];
                state.apply(pick);
                decisions += 1;
            }
            Playout { ending: state.ending(), decisions }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(seats: usize) -> Rules {
        Rules {
            seats,
            teams: false,
            transfers: true,
            lowest_rank: 6,
            bout_limit: 6,
            first_bout_limit: 6,
            multi_card_lead: true,
            transfer_in_first_bout: true,
            show_trump: true,
            redeal: false,
        }
    }

    #[test]
    fn every_deal_ends_with_one_durak_at_most() {
        for seats in 2..=6 {
            for played in playouts(rules(seats), 50, seats as u64) {
                assert!(["durak", "no_durak"].contains(&played.ending.termination));
                assert!(played.ending.points.iter().filter(|&&p| p == 0).count() >= 1);
            }
        }
    }

    #[test]
    fn actions_sort_by_kind_then_cards() {
        let mut actions = vec![Action::new(TAKE, &[]), Action::new(LEAD, &[9, 22]), Action::new(LEAD, &[9])];
        actions.sort();
        assert_eq!(actions, vec![Action::new(LEAD, &[9]), Action::new(LEAD, &[9, 22]), Action::new(TAKE, &[])]);
    }
}

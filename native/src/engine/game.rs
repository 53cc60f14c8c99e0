//! The Tabla family's games as whole state machines: Tabla, Gjul Bara, Tapa and the `tabla-match` rotation, with
//! seeded random playouts run entirely here. It is the twin of `referee/games/tabla_family/` (`FamilyState` and
//! its three subclasses, `TablaMatchState`), on the same packed boards as `family.rs`; the Python engines are the
//! reference and `referee/playouts.py` drives them with the same random stream to check every outcome.

use super::family::{hit_points, nibble_bits, occupied, Buffers, Position, Stage, Terminal, BOARD_MASK};

const BAR: u128 = 1 << 100;
/// Bit 4p for the points 1..24.
const POINT_BITS: u128 = nibble_bits(1, 24);
/// The nibbles of the points 1..24.
const POINTS: u128 = POINT_BITS * 15;
/// Bit 0 of every nibble 0..25.
const LOW_BITS: u128 = nibble_bits(0, 25);
/// Bit 4p for the points 1..12.
const FIRST_HALF: u128 = nibble_bits(1, 12);

/// Checkers on `point` (0 off, 25 the bar).
pub(crate) fn count(board: u128, point: u32) -> u32 {
    ((board >> (point << 2)) & 15) as u32
}

/// The board numbered from the other end: nibble p moves to 25 − p.
fn mirror(board: u128) -> u128 {
    let reversed = (board & BOARD_MASK).swap_bytes();
    let swapped = ((reversed & 0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F) << 4)
        | ((reversed >> 4) & 0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F);
    swapped >> 24
}

/// Bit 4p for every point holding two checkers or more.
fn stacked(board: u128) -> u128 {
    (board >> 1 | board >> 2 | board >> 3) & LOW_BITS
}

/// The dice of one stage: two different dice, larger first, or one die up to four times.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Dice {
    values: [u32; 4],
    len: usize,
}

impl Dice {
    fn of_roll(high: u32, low: u32) -> Dice {
        if high == low {
            Dice::repeated(high, 4)
        } else {
            Dice { values: [high, low, 0, 0], len: 2 }
        }
    }

    fn repeated(die: u32, times: usize) -> Dice {
        Dice { values: [die; 4], len: times }
    }

    fn as_slice(&self) -> &[u32] {
        &self.values[..self.len]
    }
}

/// A game's own rules and options (the options of `gjul_bara.py` and `tapa.py`).
#[derive(Clone, Copy, Debug)]
pub enum Variant {
    Tabla,
    GjulBara { ladder_from: u32, count_global: bool, remainder_to_opponent: bool },
    Tapa { blocks_all: bool, both_mothers_points: u32 },
}

/// A game definition: its variant and the stuck guard.
#[derive(Clone, Copy, Debug)]
pub struct Game {
    pub variant: Variant,
    pub stuck_limit: u32,
}

impl Game {
    fn start(&self) -> u128 {
        match self.variant {
            Variant::Tabla => (2 << 96) | (5 << 52) | (3 << 32) | (5 << 24),
            _ => 15 << 96,
        }
    }
}

/// How a game ended (the words of the Python outcomes).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Termination {
    Normal,
    Mars,
    Mother,
    BothMothers,
    Stuck,
}

impl Termination {
    pub fn word(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Mars => "mars",
            Termination::Mother => "mother",
            Termination::BothMothers => "both_mothers",
            Termination::Stuck => "stuck",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Outcome {
    pub termination: Termination,
    pub points: [u32; 2],
}

impl Outcome {
    /// The seat with more points, if one has more.
    fn winner(&self) -> Option<usize> {
        match self.points[0].cmp(&self.points[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Phase {
    Opening,
    Roll,
    Move,
    Over,
}

/// A position of one game (`FamilyState`, with Gjul Bara's ladder fields, unused by the other two).
#[derive(Clone)]
pub struct State {
    game: Game,
    opening_dice_play: bool,
    boards: [u128; 2],
    pins: [u128; 2],
    pub phase: Phase,
    turn: usize,
    stages: Vec<Dice>,
    rolls: [u32; 2],
    stuck: u32,
    moved: bool,
    pub outcome: Option<Outcome>,
    used: u32,
    /// The current stage's legal plays by end position, in the engines' order.
    pub ends: Vec<Position>,
    buffers: Buffers,
    chain: bool,
    started: bool,
    handover: Vec<Dice>,
    remainder: bool,
    /// Enter a stage without listing its plays (`ends` stays empty until `list_plays`): the `steps` policy's
    /// playouts, which seldom need the list.
    lazy: bool,
    /// The stage a lazy state entered and the mover's board.
    entered: Option<(Stage, u128)>,
}

impl State {
    /// A new game: an opening throw, or `starter` rolls first.
    pub fn new(game: Game, starter: Option<usize>, opening_dice_play: bool) -> State {
        let start = game.start();
        State {
            game,
            opening_dice_play,
            boards: [start, start],
            pins: [0, 0],
            phase: if starter.is_none() { Phase::Opening } else { Phase::Roll },
            turn: starter.unwrap_or(0),
            stages: Vec::new(),
            rolls: [0, 0],
            stuck: 0,
            moved: false,
            outcome: None,
            used: 0,
            ends: Vec::new(),
            buffers: Buffers::default(),
            chain: false,
            started: false,
            handover: Vec::new(),
            remainder: false,
            lazy: false,
            entered: None,
        }
    }

    /// The one-die opening throw, `dice[s]` thrown by seat s; equal dice are thrown again.
    pub fn opening(&mut self, first: u32, second: u32) {
        debug_assert_eq!(self.phase, Phase::Opening);
        if first != second {
            self.turn = if first > second { 0 } else { 1 };
            self.phase = Phase::Roll;
            if self.opening_dice_play {
                self.roll(first.max(second), first.min(second));
            }
        }
    }

    /// The seat to roll rolls `high`-`low`.
    pub fn roll(&mut self, high: u32, low: u32) {
        debug_assert_eq!(self.phase, Phase::Roll);
        self.rolls[self.turn] += 1;
        self.moved = false;
        self.queue_roll(high, low);
        self.advance();
    }

    /// The seat to move plays the legal play `ends[index]`.
    pub fn play(&mut self, index: usize) {
        self.play_legal(self.ends[index]);
    }

    /// The seat to move plays `end`, known to be a legal play's end position.
    fn play_legal(&mut self, end: Position) {
        debug_assert_eq!(self.phase, Phase::Move);
        self.boards[self.turn] = end & BOARD_MASK;
        self.moved = true;
        self.after_play(end);
        if self.phase != Phase::Over {
            self.stage_done(self.used);
            self.advance();
        }
    }

    /// The seat to move plays the legal play ending in `end` (a position of `ends`); false when none does.
    pub fn play_end(&mut self, end: Position) -> bool {
        match self.ends.binary_search(&end) {
            Ok(index) => {
                self.play(index);
                true
            }
            Err(_) => false,
        }
    }

    /// Set both sides' boards and pins and the rolls made (a position for tests and analysis; the state must be
    /// waiting for a roll).
    pub fn place(&mut self, boards: [u128; 2], pins: [u128; 2], rolls: [u32; 2]) {
        self.boards = boards;
        self.pins = pins;
        self.rolls = rolls;
    }

    /// The game's rules.
    pub fn variant(&self) -> &Variant {
        &self.game.variant
    }

    /// The game this state is one of.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Each seat's board (own numbering).
    pub fn boards(&self) -> [u128; 2] {
        self.boards
    }

    /// Each seat's pinned checkers (Tapa; bit 4p: that seat's checker on its point p is pinned).
    pub fn pins(&self) -> [u128; 2] {
        self.pins
    }

    /// The seat whose turn it is.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The rolls each seat has made.
    pub fn rolls(&self) -> [u32; 2] {
        self.rolls
    }

    /// The dice of the stage to play (empty unless a seat is to move).
    pub fn dice(&self) -> &[u32] {
        match (self.phase, self.stages.first()) {
            (Phase::Move, Some(dice)) => dice.as_slice(),
            _ => &[],
        }
    }

    /// The die of each stage queued after the current one (Gjul Bara's ladder) and whether the seat to move plays
    /// the opponent's remainder.
    pub fn ladder(&self) -> (Vec<u32>, bool) {
        let later = self.stages.iter().skip(1).map(|dice| dice.values[0]).collect();
        (later, self.remainder)
    }

    /// The stage to play and the mover's board (a seat must be to move).
    pub fn current_stage(&self) -> (Stage, u128) {
        self.stage(*self.stages.first().expect("a seat to move has a stage"))
    }

    fn queue_roll(&mut self, high: u32, low: u32) {
        self.stages.clear();
        self.chain = false;
        if let Variant::GjulBara { ladder_from, count_global, .. } = self.game.variant {
            let number = if count_global { self.rolls[0] + self.rolls[1] } else { self.rolls[self.turn] };
            if high == low && number >= ladder_from {
                self.stages.extend((high..=6).map(|die| Dice::repeated(die, 4)));
                self.chain = true;
                self.started = false;
                return;
            }
        }
        self.stages.push(Dice::of_roll(high, low));
    }

    /// The current stage was played with `used` dice (0 when it had no play): Gjul Bara's chain hands its
    /// unplayable rest over.
    fn stage_done(&mut self, used: u32) {
        let stage = self.stages.remove(0);
        if !self.chain || self.remainder {
            return;
        }
        if used as usize == stage.len {
            self.started = true;
            return;
        }
        if !self.started && used == 0 {
            self.stages.clear();
            return;
        }
        let mut rest = Vec::with_capacity(self.stages.len() + 1);
        if (used as usize) < stage.len {
            rest.push(Dice::repeated(stage.values[0], stage.len - used as usize));
        }
        rest.append(&mut self.stages);
        if let Variant::GjulBara { remainder_to_opponent: true, .. } = self.game.variant {
            self.handover = rest;
        }
    }

    /// Go to the next stage with a legal play; stages without one are done with 0 dice; then pass.
    fn advance(&mut self) {
        while let Some(&dice) = self.stages.first() {
            let (stage, board) = self.stage(dice);
            if self.lazy {
                if stage.has_play(board) {
                    self.ends.clear();
                    self.entered = Some((stage, board));
                    self.phase = Phase::Move;
                    return;
                }
                self.stage_done(0);
                continue;
            }
            let used = stage.ends_into(board, &mut self.buffers, &mut self.ends);
            if !self.ends.is_empty() {
                self.used = used;
                self.phase = Phase::Move;
                return;
            }
            self.stage_done(0);
        }
        self.end_turn();
    }

    /// List the current stage's plays into `ends` (a lazy state enters a stage without them).
    fn list_plays(&mut self) {
        let (stage, board) = self.current_stage();
        self.used = stage.ends_into(board, &mut self.buffers, &mut self.ends);
    }

    /// The seat to move plays as `policy` draws from `rng`.
    fn play_random(&mut self, policy: Policy, rng: &mut SplitMix64) {
        if policy == Policy::Steps {
            let (stage, board) = self.entered.expect("a lazy state keeps the stage it entered");
            if let Some(end) = stage.random_play(board, &mut self.buffers, |n| rng.below(n)) {
                self.used = stage.dice().len() as u32;
                return self.play_legal(end);
            }
            self.list_plays();
        }
        let index = rng.below(self.ends.len() as u64) as usize;
        self.play(index);
    }

    fn end_turn(&mut self) {
        if !self.handover.is_empty() {
            self.stages = std::mem::take(&mut self.handover);
            self.stuck = if self.moved { 0 } else { self.stuck + 1 };
            self.turn = 1 - self.turn;
            self.remainder = true;
            self.moved = false;
            self.advance();
        } else if self.remainder {
            self.remainder = false;
            self.chain = false;
            if self.moved {
                self.stuck = 0;
            }
            self.pass_dice(self.turn);
        } else {
            self.chain = false;
            self.stuck = if self.moved { 0 } else { self.stuck + 1 };
            self.pass_dice(1 - self.turn);
            if self.stuck >= self.game.stuck_limit {
                self.finish(Outcome { termination: Termination::Stuck, points: [0, 0] });
            }
        }
    }

    fn pass_dice(&mut self, seat: usize) {
        self.turn = seat;
        self.stages.clear();
        self.ends.clear();
        self.phase = Phase::Roll;
    }

    fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.stages.clear();
        self.ends.clear();
    }

    /// The constant facts of the mover's stage with `dice`, and the mover's board (each game's `_stage`).
    fn stage(&self, dice: Dice) -> (Stage, u128) {
        let (me, opp) = (self.boards[self.turn], self.boards[1 - self.turn]);
        let values = dice.as_slice();
        let stage = match self.game.variant {
            Variant::Tabla => {
                let theirs = mirror(opp);
                let closed = stacked(theirs) & POINT_BITS;
                let singles = theirs & POINT_BITS & !closed;
                Stage::new(values, closed, 0, singles, true, Terminal::AllOff, true)
            }
            Variant::GjulBara { .. } => {
                let theirs = occupied(opp & POINTS);
                let closed = ((theirs & FIRST_HALF) << 48) | (theirs >> 48);
                Stage::new(values, closed, 0, 0, true, Terminal::AllOff, false)
            }
            Variant::Tapa { blocks_all, .. } => {
                let (my_pins, their_pins) = (self.pins[self.turn], self.pins[1 - self.turn]);
                let theirs = mirror(opp) & POINTS;
                let stacks = stacked(theirs);
                let singles = occupied(theirs) & !stacks & !mirror(their_pins);
                let can_bear_off = !(blocks_all && my_pins != 0);
                let my_mother_pinned = (my_pins >> 96) & 1 != 0;
                let mother_in_play = count(opp, 24) == 1
                    && me & reaching_point_1(dice) != 0
                    && (count(me, 24) as usize <= dice.len || my_mother_pinned);
                let terminal = if mother_in_play { Terminal::Mother { my_mother_pinned } } else { Terminal::AllOff };
                Stage::new(values, my_pins | stacks, my_pins, singles, can_bear_off, terminal, false)
            }
        };
        (stage, me)
    }

    /// Apply the mover's play to both sides; finish the game if it ended.
    fn after_play(&mut self, played: Position) {
        let (mover, other) = (self.turn, 1 - self.turn);
        let sides = Sides { boards: [self.boards[mover], self.boards[other]], pins: [self.pins[mover], self.pins[other]] };
        let (after, ended) = after_play(self.game.variant, sides, played);
        (self.boards[mover], self.boards[other]) = (after.boards[0], after.boards[1]);
        (self.pins[mover], self.pins[other]) = (after.pins[0], after.pins[1]);
        if let Some(outcome) = ended {
            let [first, second] = outcome.points;
            let points = if mover == 0 { [first, second] } else { [second, first] };
            self.finish(Outcome { termination: outcome.termination, points });
        }
    }
}

/// Both sides' boards and pins (Tapa: bit 4p, that side's checker on its point p is pinned), the mover's first,
/// each in its own numbering.
#[derive(Clone, Copy, Debug)]
pub struct Sides {
    pub boards: [u128; 2],
    pub pins: [u128; 2],
}

/// The sides after the mover plays `played` (an end position of its stage), and the outcome, the mover's points
/// first, if the play ends the game (`_after_play` of each game).
pub fn after_play(variant: Variant, sides: Sides, played: Position) -> (Sides, Option<Outcome>) {
    let end = played & BOARD_MASK;
    let Sides { boards: [_, mut opp], pins: [my_pins, mut their_pins] } = sides;
    let won = |opp: u128, mother: bool| {
        let loser_off = count(opp, 0);
        let termination = match (mother, loser_off) {
            (true, _) => Termination::Mother,
            (false, 0) => Termination::Mars,
            _ => Termination::Normal,
        };
        Outcome { termination, points: [if mother || loser_off == 0 { 2 } else { 1 }, 0] }
    };
    let mut ended = None;
    match variant {
        Variant::Tabla => {
            let hits = hit_points(played);
            if hits != 0 {
                opp += hits.count_ones() as u128 * BAR - mirror(hits);
            }
        }
        Variant::GjulBara { .. } => {}
        Variant::Tapa { both_mothers_points, .. } => {
            let mine = mirror(occupied(end & POINTS) & !my_pins);
            their_pins = occupied(opp & POINTS) & !stacked(opp) & mine;
            if end & 15 != 15 && count(opp, 24) != 0 && count(end, 1) != 0 {
                if count(end, 24) == 0 {
                    ended = Some(won(opp, true));
                } else if (my_pins >> 96) & 1 != 0 {
                    let points = [both_mothers_points; 2];
                    ended = Some(Outcome { termination: Termination::BothMothers, points });
                }
            }
        }
    }
    if end & 15 == 15 {
        ended = Some(won(opp, false));
    }
    (Sides { boards: [end, opp], pins: [my_pins, their_pins] }, ended)
}

/// The length of a position's feature vector (`referee/games/tabla_family/features.py`).
pub const FEATURES: usize = 2 * (24 * 4 + 2) + 2 * 24;

/// The features of `sides` (the side just moved first, the side to roll second) into `out` (`FEATURES` long):
/// for each side in its own numbering, per point 1..24 the units n ≥ 1, n ≥ 2, n ≥ 3 and (n − 3) / 2 above three,
/// then the bar n / 2 and the borne-off n / 15; then each side's pinned checkers, one unit per point.
pub fn features(sides: &Sides, out: &mut [f32]) {
    let mut k = 0;
    for board in sides.boards {
        for point in 1..=24 {
            let n = count(board, point);
            out[k] = f32::from(n >= 1);
            out[k + 1] = f32::from(n >= 2);
            out[k + 2] = f32::from(n >= 3);
            out[k + 3] = if n > 3 { (n - 3) as f32 / 2.0 } else { 0.0 };
            k += 4;
        }
        out[k] = count(board, 25) as f32 / 2.0;
        out[k + 1] = count(board, 0) as f32 / 15.0;
        k += 2;
    }
    for pins in sides.pins {
        for point in 1..=24 {
            out[k] = ((pins >> (point << 2)) & 1) as f32;
            k += 1;
        }
    }
}

/// The nibbles of point 1 and of the points from which a checker could reach it with some of `dice`.
fn reaching_point_1(dice: Dice) -> u128 {
    let [first, second, ..] = dice.values;
    let mut mask = 0;
    let mut reach = |distance: u32| {
        if distance < 24 {
            mask |= 15u128 << ((1 + distance) << 2);
        }
    };
    if dice.len == 2 && first != second {
        for distance in [0, first, second, first + second] {
            reach(distance);
        }
    } else {
        for k in 0..=dice.len as u32 {
            reach(first * k);
        }
    }
    mask
}

/// SplitMix64: the playouts' random stream, simple enough to be repeated exactly in Python.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in 0..n from the high 32 bits (bias below n / 2^32).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() >> 32) * n) >> 32
    }

    /// Where the stream stands: `SplitMix64::new` of it goes on with the same numbers.
    pub fn state(&self) -> u64 {
        self.0
    }

    /// Two dice, each 1..6, from one draw of 36.
    pub fn dice(&mut self) -> (u32, u32) {
        let k = self.below(36) as u32;
        (k / 6 + 1, k % 6 + 1)
    }
}

/// One finished playout: the outcome and the decisions (plays) made.
pub struct Playout {
    pub outcome: Outcome,
    pub decisions: u32,
}

/// How a playout chooses each play (`POLICIES` in `referee/playouts.py`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Policy {
    /// Uniformly among the stage's distinct legal plays, every one of them listed.
    Uniform,
    /// Random single steps (`Stage::random_play`); uniformly among the listed plays when a walk misses one die.
    Steps,
}

impl Policy {
    /// The policy named `word` (`uniform` or `steps`).
    pub fn named(word: &str) -> Option<Policy> {
        match word {
            "uniform" => Some(Policy::Uniform),
            "steps" => Some(Policy::Steps),
            _ => None,
        }
    }
}

/// Play `state` to its end with plays chosen by `policy` and dice, all drawn from `rng`, counting the decisions;
/// the generator's scratch space is `buffers`, kept from game to game.
fn play_out(state: &mut State, policy: Policy, rng: &mut SplitMix64, buffers: &mut Buffers) -> u32 {
    state.lazy = policy == Policy::Steps;
    std::mem::swap(&mut state.buffers, buffers);
    let decisions = decide_all(state, policy, rng);
    std::mem::swap(&mut state.buffers, buffers);
    decisions
}

/// Roll, open and play `state` to its end, counting the decisions.
fn decide_all(state: &mut State, policy: Policy, rng: &mut SplitMix64) -> u32 {
    let mut decisions = 0;
    play_to_end(state, rng, |state, rng| {
        state.play_random(policy, rng);
        decisions += 1;
    });
    decisions
}

/// Throw the opening and roll for `state` from `rng` until the game is over, `play` making every play (it is
/// called whenever a seat is to move, and must play).
pub fn play_to_end(state: &mut State, rng: &mut SplitMix64, mut play: impl FnMut(&mut State, &mut SplitMix64)) {
    loop {
        match state.phase {
            Phase::Opening => {
                let (first, second) = rng.dice();
                state.opening(first, second);
            }
            Phase::Roll => {
                let (first, second) = rng.dice();
                state.roll(first.max(second), first.min(second));
            }
            Phase::Move => play(state, rng),
            Phase::Over => return,
        }
    }
}

/// `count` random games of `game` from its opening throw, plays chosen by `policy`, one random stream for all.
pub fn game_playouts(game: Game, policy: Policy, count: usize, seed: u64) -> Vec<Playout> {
    let (mut rng, mut buffers) = (SplitMix64::new(seed), Buffers::default());
    (0..count)
        .map(|_| {
            let mut state = State::new(game, None, false);
            let decisions = play_out(&mut state, policy, &mut rng, &mut buffers);
            Playout { outcome: state.outcome.expect("a finished game has an outcome"), decisions }
        })
        .collect()
}

/// A `tabla-match`: its three games (Tabla, Gjul Bara, Tapa), the target and how games open.
#[derive(Clone, Copy, Debug)]
pub struct Match {
    pub games: [Game; 3],
    pub target: u32,
    pub every_game_opens: bool,
}

/// `count` random matches, plays chosen by `policy`, each outcome the final score (termination `Normal` stands for
/// `match`).
pub fn match_playouts(spec: Match, policy: Policy, count: usize, seed: u64) -> Vec<Playout> {
    let (mut rng, mut buffers) = (SplitMix64::new(seed), Buffers::default());
    (0..count)
        .map(|_| {
            let (mut scores, mut number, mut starter, mut decisions) = ([0u32; 2], 1usize, None, 0);
            loop {
                let game = spec.games[(number - 1) % 3]; // game k: Tabla (k mod 3 = 1), Gjul Bara, Tapa
                let mut state = if spec.every_game_opens {
                    State::new(game, None, true)
                } else {
                    State::new(game, starter, false)
                };
                decisions += play_out(&mut state, policy, &mut rng, &mut buffers);
                let outcome = state.outcome.expect("a finished game has an outcome");
                scores[0] += outcome.points[0];
                scores[1] += outcome.points[1];
                if scores[0].max(scores[1]) >= spec.target && scores[0] != scores[1] {
                    return Playout { outcome: Outcome { termination: Termination::Normal, points: scores }, decisions };
                }
                number += 1;
                starter = outcome.winner();
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_reverses_the_nibbles() {
        let board = (3u128 << 96) | (1 << 100) | 2;
        assert_eq!(mirror(board), (3u128 << 4) | 1 | (2 << 100));
    }

    #[test]
    fn splitmix_matches_its_reference_values() {
        // The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn every_game_ends() {
        for variant in [
            Variant::Tabla,
            Variant::GjulBara { ladder_from: 4, count_global: false, remainder_to_opponent: true },
            Variant::Tapa { blocks_all: false, both_mothers_points: 0 },
        ] {
            for policy in [Policy::Uniform, Policy::Steps] {
                let played = game_playouts(Game { variant, stuck_limit: 100 }, policy, 50, 7);
                assert!(played.iter().all(|p| p.decisions > 0 && p.outcome.points.iter().sum::<u32>() <= 2));
            }
        }
    }
}

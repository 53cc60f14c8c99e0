//! A learned bot's value network evaluated in the core: the twin of `Network.values` in
//! `bots/python/td_network.py` (one hidden layer of sigmoid units over a row's features and the extra inputs of its
//! input set, `inputs.rs`, and a linear output), in float32 as the shipped weights are. A search asks it for the
//! best reply to every roll (`best_replies`) so that the rows of its replies never leave the core. The
//! features are mostly zeros, and the position a play leaves differs from the one it was made in by a few: a
//! row's hidden units are found from a base row's by the weight columns of the features in which they differ.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::inputs::{sides_extras, sides_of, Inputs, FEATURES, PINS, SIDE};
use crate::engine::family::BOARD_MASK;
use crate::engine::game::{count, Sides};

/// A network of `Network`'s shape with its weights.
#[pyclass(module = "kafana_native.bots", frozen)]
pub struct ValueNet {
    pub(super) hidden: usize,
    /// The first layer by input: input j's weight to each hidden unit at `j * hidden..`.
    pub(super) columns: Vec<f32>,
    pub(super) b1: Vec<f32>,
    pub(super) w2: Vec<f32>,
    pub(super) b2: f32,
    /// The input set it reads: the features, then that set's extra inputs.
    pub(super) extras: Inputs,
}

/// Little-endian float32 bytes as numbers.
fn floats(bytes: &[u8], what: &str) -> PyResult<Vec<f32>> {
    if !bytes.len().is_multiple_of(4) {
        return Err(PyValueError::new_err(format!("{what}: {} bytes are not float32 numbers", bytes.len())));
    }
    Ok(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
}

#[pymethods]
impl ValueNet {
    /// The network of `w1` (hidden × inputs, row by row), `b1`, `w2` (each hidden long), `b2`, as float32 bytes,
    /// reading the input set `inputs` (``plain``, ``shots``, ``blocks``, ``contact`` or ``primes``).
    #[new]
    fn new(w1: &[u8], b1: &[u8], w2: &[u8], b2: f32, inputs: &str) -> PyResult<Self> {
        Self::of_bytes(w1, b1, w2, b2, inputs)
    }

    /// The value of each row of `rows` (float32 bytes, rows of the features), as float32 bytes.
    fn values<'py>(&self, py: Python<'py>, rows: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
        let rows = floats(rows, "rows")?;
        if !rows.len().is_multiple_of(FEATURES) {
            return Err(PyValueError::new_err(format!("{} numbers are not rows of {FEATURES} features", rows.len())));
        }
        let (empty, mut scratch) = (self.empty(), Scratch::default());
        let mut bytes = Vec::with_capacity(rows.len() / FEATURES * 4);
        for row in rows.chunks_exact(FEATURES) {
            let sides = sides_of(row).ok_or_else(|| PyValueError::new_err("a row is not the features of a position"))?;
            bytes.extend(self.value_near(&empty, &sides, &mut scratch).to_le_bytes());
        }
        Ok(PyBytes::new(py, &bytes))
    }
}

/// What [`ValueNet::value_near`] reuses from row to row.
#[derive(Default)]
pub struct Scratch {
    units: Vec<f32>,
    extras: Vec<f64>,
}

/// A position and its hidden units' sums over its features (the extra inputs aside), from which the units of a
/// position that differs from it in a few features are found by those alone: the positions one play leaves.
pub struct Base {
    sides: Sides,
    units: Vec<f32>,
}

impl ValueNet {
    /// The network [`ValueNet::new`] makes of its arguments.
    pub fn of_bytes(w1: &[u8], b1: &[u8], w2: &[u8], b2: f32, inputs: &str) -> PyResult<Self> {
        let extras = Inputs::named(inputs).map_err(PyValueError::new_err)?;
        let (w1, b1, w2) = (floats(w1, "w1")?, floats(b1, "b1")?, floats(w2, "w2")?);
        let hidden = b1.len();
        let width = FEATURES + extras.extras();
        if hidden == 0 || w2.len() != hidden || w1.len() != hidden * width {
            return Err(PyValueError::new_err(format!(
                "a network of {} hidden units over {width} inputs needs {} first-layer weights and {hidden} output \
                 weights, not {} and {}",
                hidden,
                hidden * width,
                w1.len(),
                w2.len()
            )));
        }
        let mut columns = vec![0f32; w1.len()];
        for unit in 0..hidden {
            for input in 0..width {
                columns[input * hidden + unit] = w1[unit * width + input];
            }
        }
        Ok(ValueNet { hidden, columns, b1, w2, b2, extras })
    }

    /// How many numbers the network reads: the features and its extra inputs.
    pub fn width(&self) -> usize {
        self.columns.len() / self.hidden
    }

    /// `w1`, `b1` and `w2` as [`ValueNet::new`] takes them (float32 bytes, `w1` hidden × inputs row by row).
    pub fn to_bytes(&self) -> [Vec<u8>; 3] {
        let width = self.width();
        let mut w1 = Vec::with_capacity(4 * self.columns.len());
        for unit in 0..self.hidden {
            for input in 0..width {
                w1.extend_from_slice(&self.columns[input * self.hidden + unit].to_le_bytes());
            }
        }
        let bytes = |numbers: &[f32]| numbers.iter().flat_map(|x| x.to_le_bytes()).collect();
        [w1, bytes(&self.b1), bytes(&self.w2)]
    }

    /// The base of positions near `sides` (the side just moved first).
    pub fn base(&self, sides: &Sides) -> Base {
        let empty = self.empty();
        let mut units = empty.units.clone();
        self.add_changes(&empty.sides, sides, &mut units);
        Base { sides: *sides, units }
    }

    /// The base of no checkers at all: its features are zeros, its units the biases.
    fn empty(&self) -> Base {
        Base { sides: Sides { boards: [0, 0], pins: [0, 0] }, units: self.b1.clone() }
    }

    /// The value of a position (the side just moved first), found from a base near it.
    pub fn value_near(&self, base: &Base, sides: &Sides, scratch: &mut Scratch) -> f32 {
        let units = &mut scratch.units;
        units.clear();
        units.extend_from_slice(&base.units);
        self.add_changes(&base.sides, sides, units);
        scratch.extras.clear();
        sides_extras(sides, self.extras, &mut scratch.extras);
        for (at, &x) in scratch.extras.iter().enumerate() {
            self.add(FEATURES + at, x as f32, units);
        }
        squash(units);
        self.b2 + dot(units, &self.w2)
    }

    /// Add to `units` the weights of the features (`game::features`) in which `after` differs from `before`, by
    /// the difference: only the points whose checkers or pins differ are looked at.
    fn add_changes(&self, before: &Sides, after: &Sides, units: &mut [f32]) {
        for side in 0..2 {
            let (was_board, board) = (before.boards[side], after.boards[side]);
            let mut changed = (was_board ^ board) & BOARD_MASK;
            while changed != 0 {
                let nibble = changed.trailing_zeros() / 4;
                changed &= !(15u128 << (nibble * 4));
                let (was, now) = (count(was_board, nibble), count(board, nibble));
                let at = side * SIDE;
                match nibble {
                    0 => self.add(at + SIDE - 1, (now as f32 - was as f32) / 15.0, units),
                    25 => self.add(at + SIDE - 2, (now as f32 - was as f32) / 2.0, units),
                    point => {
                        let (from, to) = (point_units(was), point_units(now));
                        for unit in 0..4 {
                            if from[unit] != to[unit] {
                                self.add(at + 4 * (point as usize - 1) + unit, to[unit] - from[unit], units);
                            }
                        }
                    }
                }
            }
            let (was_pins, pins) = (before.pins[side], after.pins[side]);
            if was_pins == pins {
                continue;
            }
            for point in 1..=24 {
                let (was, now) = ((was_pins >> (point * 4)) & 1, (pins >> (point * 4)) & 1);
                if was != now {
                    self.add(PINS + side * 24 + point - 1, now as f32 - was as f32, units);
                }
            }
        }
    }

    /// Add input `input`'s weights times `x` to `units`.
    fn add(&self, input: usize, x: f32, units: &mut [f32]) {
        let column = &self.columns[input * self.hidden..(input + 1) * self.hidden];
        for (unit, weight) in units.iter_mut().zip(column) {
            *unit += x * weight;
        }
    }
}

/// `e^x` in float32 as Cephes' `expf` makes it (a power of two times a polynomial on [−ln 2 / 2, ln 2 / 2], within
/// two units in the last place), in plain arithmetic that the compiler makes into vector instructions: a network's
/// sigmoids were most of a search's time as calls to the C library's `expf`.
#[inline(always)]
fn exp(x: f32) -> f32 {
    let x = x.clamp(-87.0, 88.0);
    let n = (x * std::f32::consts::LOG2_E + 12_582_912.0) - 12_582_912.0; // rounded to the nearest whole number
    let r = x - n * 0.693_359_4 - n * -2.121_944_4e-4;
    let mut p = 1.987_569_1e-4;
    for c in [1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 0.166_666_65, 0.5] {
        p = p * r + c;
    }
    (p * r * r + r + 1.0) * f32::from_bits(((n as i32 + 127) << 23) as u32)
}

/// Each of `units` through the logistic sigmoid, in place.
pub(super) fn squash(units: &mut [f32]) {
    for unit in units.iter_mut() {
        *unit = 1.0 / (1.0 + exp(-*unit));
    }
}

/// The dot product of two rows, summed in eight lanes (so that it runs in vector instructions).
pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (chunks_a, chunks_b) = (a.chunks_exact(8), b.chunks_exact(8));
    let rest: f32 = chunks_a.remainder().iter().zip(chunks_b.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in chunks_a.zip(chunks_b) {
        for lane in 0..8 {
            lanes[lane] += x[lane] * y[lane];
        }
    }
    lanes.iter().sum::<f32>() + rest
}

/// A point's four features for `n` checkers: n ≥ 1, n ≥ 2, n ≥ 3 and (n − 3) / 2 above three (`game::features`).
fn point_units(n: u32) -> [f32; 4] {
    [f32::from(n >= 1), f32::from(n >= 2), f32::from(n >= 3), if n > 3 { (n - 3) as f32 / 2.0 } else { 0.0 }]
}

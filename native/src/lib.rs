//! `kafana_native._core`: the compiled parts of Kafana, each a submodule with its Python facade in
//! `python/kafana_native/`:
//!
//! - `engine` (`src/engine/`): the engine core, the compiled twins of the Python engines' hot paths, driven by
//!   `referee.games`;
//! - `wire` (`src/wire.rs`): the referee's gRPC client, driven by `referee.runtime.native_bridge`;
//! - `bots` (`src/bots/`): the shipped bots' accelerators (the Gaps solver, the Durak search's rollouts, the
//!   learned networks), built on the engine core.
//!
//! The Python code stays the reference; every function here gives exactly what its Python twin gives.

mod bots;
mod engine;
mod wire;

use pyo3::prelude::*;

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_submodule(&engine::module(py)?)?;
    module.add_submodule(&wire::module(py)?)?;
    module.add_submodule(&bots::module(py)?)?;
    Ok(())
}

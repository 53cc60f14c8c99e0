//! The shipped bots' accelerators (`kafana_native.bots`): what the bots in `bots/python/` compute here instead of
//! in Python, each the twin of a Python reference the tests compare it with. The Gaps solver's search (`gaps.rs`,
//! twin of `bots/python/gaps_solver.py`), the Durak search bot's rollouts (`rollouts.rs`), a learned network's
//! extra inputs (`inputs.rs`, twin of `bots/python/td_inputs.py`) and the network itself (`value_net.rs`, twin of
//! `bots/python/td_network.py`) with the search step that values every roll's replies by it, its TD(λ) self-play training
//! (`self_play.rs`, twin of `bots/python/td_train.py`) positions valued by its rollouts (`net_rollouts.rs`), and the exact bear-off
//! tables of the races of Tabla and Tapa (`bearoff.rs`).
//!
//! It builds on the engine core (`crate::engine`); nothing in the engine or the wire client depends on it.

pub mod bearoff;
pub mod gaps;
pub mod inputs;
pub mod net_rollouts;
pub mod python;
pub mod rollouts;
pub mod self_play;
pub mod value_net;

use pyo3::prelude::*;

/// The `bots` submodule of `kafana_native._core`.
pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let module = PyModule::new(py, "bots")?;
    module.add_function(wrap_pyfunction!(python::gaps_solve, &module)?)?;
    module.add_function(wrap_pyfunction!(python::durak_rollouts, &module)?)?;
    module.add_function(wrap_pyfunction!(python::extra_inputs, &module)?)?;
    module.add_function(wrap_pyfunction!(python::best_replies, &module)?)?;
    module.add_function(wrap_pyfunction!(python::td_self_play, &module)?)?;
    module.add_function(wrap_pyfunction!(python::td_rollouts, &module)?)?;
    module.add_function(wrap_pyfunction!(python::bearoff_values, &module)?)?;
    module.add_class::<value_net::ValueNet>()?;
    Ok(module)
}

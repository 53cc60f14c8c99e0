//! The engine core (`kafana_native.engine`): the compiled twins of the Python engines. The Tabla family's stage
//! generator (`family.rs`), its games as whole state machines with random playouts and the features of each play's
//! position (`game.rs`, behind the State API: `family_core.rs`), Durak deals (`durak.rs`, behind the State API:
//! `durak_core.rs`), and the wire records those states write (`proto.rs`, generated from the bot protocol). The
//! Python engines stay the reference; every function here gives exactly what its Python twin gives.
//!
//! It depends on no other part of the crate: the bots' accelerators build on it, the wire client stands apart.

pub mod durak;
pub mod durak_core;
pub mod family;
pub mod family_core;
pub mod game;
pub mod proto;
pub mod python;

use pyo3::prelude::*;

/// The `engine` submodule of `kafana_native._core`.
pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let module = PyModule::new(py, "engine")?;
    module.add_function(wrap_pyfunction!(python::stage_ends, &module)?)?;
    module.add_function(wrap_pyfunction!(python::stage_plays, &module)?)?;
    module.add_function(wrap_pyfunction!(python::playouts, &module)?)?;
    module.add_function(wrap_pyfunction!(python::durak_playouts, &module)?)?;
    module.add_function(wrap_pyfunction!(python::after_features, &module)?)?;
    module.add_function(wrap_pyfunction!(durak_core::durak_actions, &module)?)?;
    module.add("FEATURES", game::FEATURES)?;
    module.add_class::<durak_core::DurakCore>()?;
    module.add_class::<durak_core::DurakListing>()?;
    module.add_class::<family_core::FamilyCore>()?;
    module.add_class::<family_core::FamilyStage>()?;
    Ok(module)
}

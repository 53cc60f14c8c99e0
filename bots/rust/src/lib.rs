//! A Kafana starter bot in Rust. [`kit`] serves a decision function as a bot; `src/main.rs` is the random bot.
pub mod kit;

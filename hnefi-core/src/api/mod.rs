//! The API for embedders: a [`Game`] of any size under any rules and an [`Engine`] that
//! searches it, without generics, so that a GUI, a server or a Python binding holds one type
//! each whatever the board.

mod engine;

pub use engine::{Analysis, Engine, EngineError, Limits, Settings, StopHandle};

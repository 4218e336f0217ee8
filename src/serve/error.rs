//! Why the server refuses a request, worded for the person at the page, each with its HTTP
//! status: 4xx for what the request can change, 5xx only for the server's own trouble.

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error(
        "no session {0}: it was closed (the page was closed or reloaded, or left idle); \
         reload the page for a new one"
    )]
    UnknownSession(String),
    #[error(
        "{max} sessions are open, the most this server allows (hnefi serve --sessions N); \
         close another tab of this board and reload"
    )]
    Full { max: usize },
    #[error("the events of session {0} are already streamed to another page")]
    Streamed(String),
    #[error("no such page or request: the board is at /")]
    NoRoute,
    #[error("{method} is not a request for {path}: see docs/serve.md for each request's method")]
    Method { method: String, path: String },
    #[error("the request is larger than the {} KB the server reads", .0 / 1024)]
    TooLarge(usize),
    #[error("bad request: {0}")]
    Malformed(String),
    #[error("{text} cannot be played here: {why}")]
    IllegalMove { text: String, why: String },
    #[error("the game is over: take back a move or start a new game")]
    Over,
    #[error("it is the engine's turn: wait for its move, or take back")]
    EngineToMove,
    #[error("there is no move {ply}: the game has {last}")]
    NoSuchPly { ply: usize, last: usize },
    #[error("there is no move to take back")]
    NothingToTakeBack,
    #[error("{0} analysis lines: choose 1 to 3")]
    Lines(usize),
    #[error("rules: {0}")]
    Rules(String),
    #[error("level: {0}")]
    Level(String),
    #[error("time a move {0} ms: choose {min} to {max} ms", min = super::table::MOVETIME_MS.start(), max = super::table::MOVETIME_MS.end())]
    Movetime(u64),
    #[error("cannot load this: {0}")]
    Load(String),
    #[error("a report of this game is being made: wait for it")]
    Reporting,
    #[error("the report: {0}")]
    Report(String),
    #[error("the Host header '{0}' is not this server's: open the board at the address it printed")]
    Host(String),
    #[error("requests from the page at {0} are refused: only this server's own page may use it")]
    Origin(String),
    #[error("the engine cannot start: {0}")]
    Engine(String),
    #[error("the session stopped answering; reload the page")]
    Gone,
}

impl ApiError {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::UnknownSession(_) | ApiError::NoRoute => 404,
            ApiError::TooLarge(_) => 413,
            ApiError::Method { .. } => 405,
            ApiError::Full { .. } => 429,
            ApiError::Streamed(_)
            | ApiError::Over
            | ApiError::EngineToMove
            | ApiError::Reporting => 409,
            ApiError::Malformed(_) => 400,
            ApiError::IllegalMove { .. }
            | ApiError::NoSuchPly { .. }
            | ApiError::NothingToTakeBack
            | ApiError::Lines(_)
            | ApiError::Rules(_)
            | ApiError::Level(_)
            | ApiError::Movetime(_)
            | ApiError::Load(_)
            | ApiError::Report(_) => 422,
            ApiError::Host(_) | ApiError::Origin(_) => 403,
            ApiError::Engine(_) | ApiError::Gone => 503,
        }
    }
}

//! `hnefi serve`: a board in the browser to play and analyse with the engine. One page, drawn
//! with the report's board and served with everything inline; each page is a session with its
//! own engine, driven through the engine API like the protocols, its search's progress
//! streamed to the page as Server-Sent Events.
//!
//! api: the requests, views and events; guard: who may ask; routes: HTTP; session: one thread
//! a page and the limit on them; table: a game and its engine; load: new games and loaded
//! ones; export: `.otg` and the report; page: the markup, script and style.

pub mod api;
pub mod error;
mod export;
pub mod guard;
mod load;
mod page;
mod routes;
pub mod session;
mod table;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: IpAddr,
    /// The name `host` was given by (`--host localhost`), if any: requests may name the
    /// server by it too.
    pub name: Option<String>,
    /// 0 for any free port.
    pub port: u16,
    /// The most sessions (pages) at once.
    pub sessions: usize,
}

/// Why the server cannot run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "cannot listen on {addr}: {source}{}",
        if source.kind() == std::io::ErrorKind::AddrInUse {
            " (another program, perhaps another `hnefi serve`, has the port: give another \
             with --port N, or --port 0 for any free one)"
        } else {
            ""
        }
    )]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot start the server's threads: {0}")]
    Runtime(std::io::Error),
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}

/// Listens, tells `ready` the page's address, and serves until the process ends.
pub fn run(config: Config, ready: impl FnOnce(&str)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let addr = SocketAddr::new(config.host, config.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        let port = listener
            .local_addr()
            .map_err(|source| ServeError::Bind { addr, source })?
            .port();
        let own = guard::Own::new(config.host, port).also(config.name.as_deref());
        ready(&own.url());
        let app = routes::App {
            sessions: session::Sessions::new(config.sessions, session::Timeouts::default()),
            own,
            page: Arc::new(page::render()),
        };
        axum::serve(listener, routes::router(app))
            .await
            .map_err(ServeError::Serve)
    })
}

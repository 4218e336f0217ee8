//! What the protocols' message tests share.

use crate::board::Move;
use crate::board::notation::parse_move;
use crate::search::size::Standard;
use std::fmt::{Debug, Display};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// A move written `d1d3` or `d1-d3`.
pub fn mv(text: &str) -> Move<Standard> {
    parse_move(text).unwrap()
}

/// Each message reads back as itself from the text it writes.
#[track_caller]
pub fn assert_round_trips<M>(messages: impl IntoIterator<Item = M>)
where
    M: Display + FromStr + PartialEq + Debug,
    M::Err: Debug,
{
    for message in messages {
        let text = message.to_string();
        match text.parse::<M>() {
            Ok(back) => assert_eq!(back, message, "{text}"),
            Err(e) => panic!("{text:?} does not read back: {e:?}"),
        }
    }
}

/// Output kept for a test to read, shared with the loop that writes it.
#[derive(Clone, Default)]
pub struct Sink(pub Arc<Mutex<Vec<u8>>>);

impl Sink {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

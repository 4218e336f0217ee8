//! What the protocols' message tests share.

use crate::board::Move;
use crate::board::notation::parse_move;
use std::fmt::{Debug, Display};
use std::str::FromStr;

/// A move written `d1d3` or `d1-d3`.
pub fn mv(text: &str) -> Move {
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

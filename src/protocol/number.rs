//! Numbers from hosts: whole, saturating at 64 bits, negative only where a clock ran out.

/// Why a number from a host was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("'{0}' is negative; it must be zero or more")]
    Negative(String),
    #[error("'{0}' is not a whole number")]
    NotANumber(String),
}

/// At most this many characters of a host's word are echoed back in an error.
const ECHO: usize = 40;

/// `text` cut to [`ECHO`] characters, for error messages.
pub fn truncate(text: &str) -> String {
    if text.chars().count() > ECHO {
        format!("{}...", text.chars().take(ECHO).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Reads a whole number of zero or more (a `+` in front is allowed). A number too large for
/// 64 bits saturates at `u64::MAX` rather than failing: a host that sends a huge clock or
/// limit means "practically unlimited", and every use of the number saturates in turn.
pub fn parse_amount(text: &str) -> Result<u64, NumberError> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::NotANumber(truncate(text)));
    }
    if negative && body.bytes().any(|b| b != b'0') {
        return Err(NumberError::Negative(truncate(text)));
    }
    // Only digits are left, so the one possible failure is overflow.
    Ok(body.parse().unwrap_or(u64::MAX))
}

/// Reads the time left on a clock, in the host's unit. A host whose clock ran past zero (it
/// took longer than it allowed) may report a negative time; that means no time left, and the
/// best answer is a move at once, so it reads as zero instead of being refused.
pub fn parse_clock(text: &str) -> Result<u64, NumberError> {
    match parse_amount(text) {
        Err(NumberError::Negative(_)) => Ok(0),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_saturate_and_refuse_negatives() {
        assert_eq!(parse_amount("0"), Ok(0));
        assert_eq!(parse_amount("+42"), Ok(42));
        assert_eq!(parse_amount("-0"), Ok(0));
        assert_eq!(parse_amount("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_amount(&"9".repeat(500)), Ok(u64::MAX));
        assert!(matches!(parse_amount("-1"), Err(NumberError::Negative(_))));
        assert!(matches!(
            parse_amount("-99999999999999999999999"),
            Err(NumberError::Negative(_))
        ));
        for bad in [
            "", "-", "+", "1.5", "1e3", "--1", "+-1", "12a", " 1", "\u{661}",
        ] {
            assert!(
                matches!(parse_amount(bad), Err(NumberError::NotANumber(_))),
                "{bad}"
            );
        }
        assert!(
            parse_amount("-7")
                .unwrap_err()
                .to_string()
                .contains("'-7' is negative")
        );
        assert_eq!(parse_clock("-250"), Ok(0));
        assert_eq!(parse_clock("250"), Ok(250));
        assert!(parse_clock("x").is_err());
        assert!(truncate(&"y".repeat(100)).len() < 50);
    }
}

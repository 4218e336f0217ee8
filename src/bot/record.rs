//! The server's descriptions of games: the JSON of `resume_game_json` (one game with its moves
//! and clocks), the JSON of `games_updated` and the RON list of open games that
//! `initialize_display` carries.

use super::message::GameId;
use crate::board::{Board, Position, RecordMove};
use crate::board::{Geometry, Rules, Side};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One game as `resume_game_json` gives it. Fields the bot does not read are skipped.
#[derive(Clone, Debug, Deserialize)]
pub struct GameRecord {
    pub id: GameId,
    pub attackers: String,
    pub defenders: String,
    /// The board's side: 7, 11 or 13.
    pub dim: u32,
    /// The start position: the top rank first between slashes, `A` `D` `K` and digits.
    pub start: String,
    pub time_control: Option<TimeControl>,
    pub time_remaining_ms: Option<TimeRemaining>,
    /// Every ply from the start, space-separated: `a4-e4 d6-d4xe4` (upper case on 13x13).
    pub moves: String,
    #[serde(default)]
    pub rated: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub struct TimeControl {
    pub main_time_seconds: i64,
    /// Seconds added after each of a side's moves.
    pub increment_length: i64,
}

/// Both clocks as of `last_move` (which the server's 250 ms ticker keeps near the present).
#[derive(Clone, Debug, Deserialize)]
pub struct TimeRemaining {
    pub attackers: i64,
    pub defenders: i64,
    /// An RFC 3339 time in UTC: `2026-11-22T16:30:56.648Z`.
    pub last_move: String,
}

/// Why a game record cannot be played by Hnefi.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RecordError {
    #[error("the board is {dim}x{dim}, not {expected}x{expected} as the game began")]
    Size { dim: u32, expected: u8 },
    #[error("unreadable start position '{0}'")]
    Start(String),
    #[error("ply {ply} '{text}' cannot be played: {why}")]
    Move {
        ply: usize,
        text: String,
        why: String,
    },
}

impl GameRecord {
    /// The side `username` plays in this game, if any.
    pub fn side_of(&self, username: &str) -> Option<Side> {
        if self.attackers.eq_ignore_ascii_case(username) {
            Some(Side::Attackers)
        } else if self.defenders.eq_ignore_ascii_case(username) {
            Some(Side::Defenders)
        } else {
            None
        }
    }

    pub fn plies(&self) -> usize {
        self.moves.split_whitespace().count()
    }

    /// The game replayed under `rules`, on a board of `G`'s size. A move that Hnefi's rules
    /// refuse, or one played after they ended the game, is still played as a plain piece move
    /// (the server decides, not Hnefi), and reported in `disagreements`.
    pub fn position<G: Geometry>(&self, rules: Rules) -> Result<Replay<G>, RecordError> {
        if self.dim != u32::from(G::SIDE) {
            return Err(RecordError::Size {
                dim: self.dim,
                expected: G::SIDE,
            });
        }
        let mut pos = Position::new(self.start_board(rules.first)?, rules);
        let mut disagreements = Vec::new();
        for (ply, text) in self.moves.split_whitespace().enumerate() {
            let bad = |why: String| RecordError::Move {
                ply: ply + 1,
                text: text.to_string(),
                why,
            };
            let record = RecordMove::<G>::parse(text).map_err(|e| bad(e.to_string()))?;
            pos.board()
                .check_move_under(record.mv, pos.rulebook())
                .map_err(|e| bad(e.to_string()))?;
            if let Err(e) = pos.clone().try_play(record.mv) {
                disagreements.push(format!("ply {} {text}: {e}", ply + 1));
            }
            let captured = pos.play(record.mv);
            if captured != record.captures {
                disagreements.push(format!(
                    "ply {} {text}: Hnefi captures {:?}",
                    ply + 1,
                    captured
                ));
            }
        }
        Ok(Replay {
            position: pos,
            disagreements,
        })
    }

    /// The start position, `first` to move (the record does not say who moves first: on
    /// 7x7 the defenders do).
    fn start_board<G: Geometry>(&self, first: Side) -> Result<Board<G>, RecordError> {
        let ranks: Vec<&str> = self.start.trim_matches('/').split('/').collect();
        let side = match first {
            Side::Attackers => 'a',
            Side::Defenders => 'd',
        };
        let fen = format!("{} {side}", ranks.join("/").to_ascii_lowercase());
        Board::from_fen(&fen).map_err(|_| RecordError::Start(self.start.clone()))
    }
}

/// A game replayed from its record.
#[derive(Clone, Debug)]
pub struct Replay<G: Geometry> {
    pub position: Position<G>,
    /// Where Hnefi's rules read the game otherwise than the server did.
    pub disagreements: Vec<String>,
}

/// A game in the lobby, as `games_updated` and `initialize_display` list it.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
pub struct OpenGame {
    pub id: GameId,
    pub attacker: Option<String>,
    pub defender: Option<String>,
    #[serde(default)]
    pub challenger: Option<String>,
    #[serde(default)]
    pub challenge_accepted: bool,
    #[serde(default)]
    pub game_over: bool,
    /// `_7`, `_11` or `_13`.
    #[serde(default)]
    pub board_size: String,
}

impl OpenGame {
    /// The board's side, if the size reads as one.
    pub fn side(&self) -> Option<u8> {
        self.board_size.strip_prefix('_')?.parse().ok()
    }

    /// Whether someone else offers this game and waits for an opponent Hnefi can be (on any
    /// board size: which sizes the bot takes is the lobby's choice).
    pub fn joinable_by(&self, username: &str) -> bool {
        let ours = |name: &Option<String>| {
            name.as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(username))
        };
        !self.challenge_accepted
            && !self.game_over
            && self.challenger.is_none()
            && (self.attacker.is_none() != self.defender.is_none())
            && !ours(&self.attacker)
            && !ours(&self.defender)
    }
}

/// `games_updated`: the games created, removed and changed since the last one.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GamesUpdate {
    #[serde(default)]
    pub created: Vec<(GameId, serde_json::Value, OpenGame)>,
    #[serde(default)]
    pub removed: Vec<GameId>,
    #[serde(default)]
    pub updated: BTreeMap<String, OpenGame>,
}

/// The open games of `initialize_display`, whose first element is a RON list of games:
/// `([(id:0,attacker:Some("a"),defender:None,challenger:(None),...,board_size:_11,...)],...)`.
/// Only the fields the bot needs are read, tolerantly: an entry that cannot be read is skipped.
pub fn parse_open_games(ron: &str) -> Vec<OpenGame> {
    let list = ron.split("],").next().unwrap_or("");
    list.split("(id:")
        .skip(1)
        .filter_map(|entry| {
            let id = entry
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()?;
            let name = |key: &str| -> Option<String> {
                let at = entry.find(&format!("{key}:"))? + key.len() + 1;
                let value = entry[at..].trim_start_matches('(');
                let value = value.strip_prefix("Some(\"")?;
                Some(value.split('"').next()?.to_string())
            };
            let flag = |key: &str| entry.contains(&format!("{key}:true"));
            let size = entry
                .split("board_size:")
                .nth(1)
                .and_then(|s| s.split([',', ')']).next())
                .unwrap_or("")
                .to_string();
            Some(OpenGame {
                id,
                attacker: name("attacker"),
                defender: name("defender"),
                challenger: name("challenger"),
                challenge_accepted: flag("challenge_accepted"),
                game_over: flag("game_over"),
                board_size: size,
            })
        })
        .collect()
}

/// Milliseconds since the Unix epoch of an RFC 3339 time in UTC such as
/// `2026-11-22T16:30:56.648Z`; `None` for anything else.
pub fn unix_millis(text: &str) -> Option<i64> {
    let text = text.strip_suffix('Z')?;
    let (date, time) = text.split_once('T')?;
    let mut d = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (year, month, day) = (d.next()??, d.next()??, d.next()??);
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut t = hms.splitn(3, ':').map(|p| p.parse::<i64>().ok());
    let (hour, minute, second) = (t.next()??, t.next()??, t.next()??);
    let valid = (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && (0..24).contains(&hour)
        && (0..60).contains(&minute)
        && (0..=60).contains(&second)
        && frac.len() <= 9
        && frac.bytes().all(|b| b.is_ascii_digit());
    if !valid {
        return None;
    }
    let millis = format!("{frac:0<3}")[..3].parse::<i64>().ok()?;
    // Days from the civil date (proleptic Gregorian), counting years from March.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Preset, Seven, Thirteen};
    use crate::search::size::Standard;

    const RECORD: &str = r#"{"id":7,"attackers":"ai-att","defenders":"ai-def","dim":11,"start":"/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/","time_control":{"main_time_seconds":900,"increment_length":10},"time_remaining_ms":{"attackers":942001,"defenders":909655,"last_move":"2026-11-22T16:30:56.648Z"},"moves":"a4-e4 d6-d4xe4","rated":true,"messages":[]}"#;

    #[test]
    fn a_game_replays() {
        let record: GameRecord = serde_json::from_str(RECORD).unwrap();
        assert_eq!(record.side_of("AI-DEF"), Some(Side::Defenders));
        assert_eq!(record.side_of("someone"), None);
        let replay = record
            .position::<Standard>(Rules::preset(Preset::HnefataflOrg))
            .unwrap();
        assert!(
            replay.disagreements.is_empty(),
            "{:?}",
            replay.disagreements
        );
        assert_eq!(replay.position.plies(), 2);
        assert_eq!(replay.position.side_to_move(), Side::Attackers);
        let untimed: GameRecord = serde_json::from_str(
            &RECORD.replace(
                r#""time_control":{"main_time_seconds":900,"increment_length":10},"time_remaining_ms":{"attackers":942001,"defenders":909655,"last_move":"2026-11-22T16:30:56.648Z"}"#,
                r#""time_control":null,"time_remaining_ms":null"#,
            ),
        )
        .unwrap();
        assert!(untimed.time_control.is_none() && untimed.time_remaining_ms.is_none());
    }

    #[test]
    fn seven_and_thirteen_replay_as_the_server_writes_them() {
        let seven = GameRecord {
            dim: 7,
            start: "/3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/".into(),
            moves: String::new(),
            ..serde_json::from_str(RECORD).unwrap()
        };
        use crate::protocol::htp::server_rules;
        // The defenders move first on 7x7.
        let start = seven
            .position::<Seven>(server_rules::<Seven>())
            .unwrap()
            .position;
        assert_eq!(start.side_to_move(), Side::Defenders);
        let two = GameRecord {
            moves: "d5-f5 b4-b6".into(),
            ..seven
        };
        let replay = two.position::<Seven>(server_rules::<Seven>()).unwrap();
        assert!(
            replay.disagreements.is_empty(),
            "{:?}",
            replay.disagreements
        );
        assert_eq!(replay.position.side_to_move(), Side::Defenders);
        // 13x13 squares come upper case.
        let thirteen = GameRecord {
            dim: 13,
            start: "/3AAAAAAA3/6A6/13/A5D5A/A5D5A/A4DDD4A/AA1DDDKDDD1AA/A4DDD4A/A5D5A/A5D5A/13/6A6/3AAAAAAA3/".into(),
            moves: "D1-D3 G4-C4 M4-D4".into(),
            ..two
        };
        let replay = thirteen
            .position::<Thirteen>(server_rules::<Thirteen>())
            .unwrap();
        assert!(
            replay.disagreements.is_empty(),
            "{:?}",
            replay.disagreements
        );
        assert_eq!(replay.position.plies(), 3);
        assert_eq!(replay.position.side_to_move(), Side::Defenders);
        assert!(matches!(
            thirteen.position::<Standard>(server_rules::<Standard>()),
            Err(RecordError::Size { dim: 13, .. })
        ));
    }

    #[test]
    fn records_hnefi_cannot_play() {
        let record: GameRecord = serde_json::from_str(RECORD).unwrap();
        let rules = Rules::preset(Preset::HnefataflOrg);
        let small = GameRecord {
            dim: 7,
            ..record.clone()
        };
        assert_eq!(
            small.position::<Standard>(rules).unwrap_err(),
            RecordError::Size {
                dim: 7,
                expected: 11
            }
        );
        let bad = GameRecord {
            moves: "a4-e4 f6-f9".into(),
            ..record.clone()
        };
        assert!(matches!(
            bad.position::<Standard>(rules),
            Err(RecordError::Move { ply: 2, .. })
        ));
        // A capture Hnefi does not see is played and reported, not refused.
        let claims = GameRecord {
            moves: "a4-e4xe5".into(),
            ..record
        };
        assert_eq!(
            claims
                .position::<Standard>(rules)
                .unwrap()
                .disagreements
                .len(),
            1
        );
    }

    #[test]
    fn lobby_lists() {
        let ron = r#"([(id:0,attacker:Some("ai-a"),defender:None,challenger:(None),rated:No,timed:Timed((add_seconds:1,milliseconds_left:60000)),spectators:{},challenge_accepted:false,game_over:false,board_size:_11,turn:Roleless),(id:3,attacker:None,defender:Some("x"),challenger:(Some("y")),challenge_accepted:false,game_over:false,board_size:_13)],Users(({})),false,false)"#;
        let games = parse_open_games(ron);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].attacker.as_deref(), Some("ai-a"));
        assert!(games[0].joinable_by("hnefi") && !games[0].joinable_by("AI-A"));
        assert_eq!(games[1].challenger.as_deref(), Some("y"));
        assert!(!games[1].joinable_by("hnefi"));
        assert!(parse_open_games("garbage (id:x").is_empty());
        let update: GamesUpdate = serde_json::from_str(r#"{"created":[[0,null,{"id":0,"attacker":"ai-a","defender":null,"challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_11","turn":"Roleless"}]],"removed":[2],"updated":{}}"#).unwrap();
        assert!(update.created[0].2.joinable_by("hnefi"));
        assert_eq!(update.removed, [2]);
    }

    #[test]
    fn times() {
        assert_eq!(unix_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(unix_millis("2000-03-01T00:00:00.5Z"), Some(951_868_800_500));
        assert_eq!(
            unix_millis("2026-11-22T16:30:56.648Z"),
            Some(1_795_365_056_648)
        );
        for bad in [
            "",
            "2026-11-22",
            "2026-13-01T00:00:00Z",
            "x-y-zTa:b:cZ",
            "2026-11-22T16:30:56.6a8Z",
        ] {
            assert_eq!(unix_millis(bad), None, "{bad}");
        }
    }
}

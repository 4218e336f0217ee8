//! The loop under the protocols whose hosts wait for a search's answer before they say more
//! (OpenTafl's and the hnefatafl text protocol). A search runs on threads of its own while the
//! input is still read: commands that come during a search wait their turn, since they may
//! depend on its move, but a command that ends the game or the engine, and the end of input,
//! stop it at once. The rule is that a search ends as soon as such a word follows it in the
//! input already read, so that every command is still answered, in order, and promptly.
//!
//! Lines are read only when the loop wants one, or while it searches, and then at most
//! [`READ_AHEAD`] commands ahead: a host (or a test) that hands over lines one by one sees each
//! taken when the one before is done with, or waiting behind a bounded few. An ending word
//! further back than that ends the search only when its turn to be read comes.

use super::{Flow, Input, LineError, LoopSettings, Output, Resize};
use crate::board::Geometry;
use crate::board::Position;
use crate::board::{SizeError, across_sizes};
use crate::search::size::{Size, SizedTask, Standard, run_sized};
use crate::search::{Go, Reporter, SearchResult, Searcher, fallback_result};
use std::collections::VecDeque;
use std::str::FromStr;
use std::sync::mpsc::{Receiver, Sender, channel};

/// A protocol as the driver runs it.
pub trait Dialogue {
    /// The board size the dialogue plays.
    type G: Size;
    /// What a line of input says, read with [`Input::command`].
    type Command: FromStr<Err = Self::Error>;
    type Error: LineError;

    /// Whether `command` ends the game or the engine, so that no search should go on.
    fn ends_search(command: &Self::Command) -> bool;

    /// Carries out a command. A search it starts answers through [`Dialogue::searched`]
    /// before any other command is handled.
    fn handle(&mut self, command: Self::Command, search: &mut Search<Self::G>) -> Flow;

    /// Answers a line that is not a command.
    fn refuse(&mut self, error: Self::Error);

    /// The search started by the last command ended with `result`.
    fn searched(&mut self, result: SearchResult<Self::G>, search: &mut Search<Self::G>);
}

/// The most commands waiting their turn before the loop stops reading. A host waiting for a
/// move sends a word or two meanwhile; one that sends more is not waiting, and without a bound
/// every search would read on as long as it runs: each command it reads may start a search of
/// its own that reads more, the waiting commands grow without end (a fuzz fed as fast as it is
/// read piled up 262,144 of them), and the last are answered long after they were taken.
const READ_AHEAD: usize = 64;

enum Event {
    Input(Input),
    /// The input ended.
    End,
    /// The search ended.
    Done,
}

/// The engine, as the commands of a [`Dialogue`] use it.
pub struct Search<G: Size> {
    engine: Searcher<G>,
    done: Sender<Event>,
    running: bool,
    /// A word that ends searches waits in the input already read, or the input ended.
    hurry: bool,
    /// The answer should the search thread not give one.
    fallback: Option<SearchResult<G>>,
}

impl<G: Size> Search<G> {
    /// For settings that outlive a search; never called while one runs.
    pub fn engine(&mut self) -> &mut Searcher<G> {
        &mut self.engine
    }

    /// Starts searching `pos`; progress goes to `report`, the result to
    /// [`Dialogue::searched`].
    pub fn start(&mut self, pos: &Position<G>, limits: Go<G>, report: Reporter<G>) {
        self.fallback = Some(fallback_result(pos, &limits.searchmoves));
        let done = self.done.clone();
        let started = self.engine.start(
            pos,
            limits,
            report,
            Some(Box::new(move |_| {
                let _ = done.send(Event::Done);
            })),
        );
        if let Err(e) = started {
            log::error!("{e}; answering with the first legal move");
            let _ = self.done.send(Event::Done);
        }
        self.running = true;
        if self.hurry {
            self.engine.stop();
        }
    }

    fn stop(&mut self) {
        self.hurry = true;
        if self.running {
            self.engine.stop();
        }
    }

    /// The result of the search that ended (`None` if none was started).
    fn result(&mut self) -> Option<SearchResult<G>> {
        self.running = false;
        let fallback = self.fallback.take();
        self.engine.wait().or(fallback)
    }
}

/// The host's input as the loops read it: a line at a time, on demand, with the commands read
/// ahead and not yet handled. It outlives a loop that hands the game to a loop of another
/// board size ([`Flow::Resize`]).
pub struct Reader {
    events: Receiver<Event>,
    events_tx: Sender<Event>,
    want: Sender<()>,
    /// Lines read and not yet handled.
    queue: VecDeque<Input>,
    /// The input ended.
    ended: bool,
    /// A line was asked for and has not come.
    asked: bool,
}

impl Reader {
    /// Reads `first`, then `input`.
    pub fn new(first: Option<Input>, input: Receiver<Input>) -> Reader {
        let (events_tx, events) = channel();
        let want = spawn_puller(input, events_tx.clone());
        Reader {
            events,
            events_tx,
            want,
            queue: first.into_iter().collect(),
            ended: false,
            asked: false,
        }
    }

    /// `line` is the next to be handled.
    pub fn push_front(&mut self, line: Input) {
        self.queue.push_front(line);
    }
}

/// A protocol that reads its lines through a [`Reader`], with a loop for each board size.
pub trait SizeLoops {
    /// The loop on boards of `G`, until the input ends or a command asks for another size.
    fn run_size<G: Size>(
        out: &Output,
        settings: LoopSettings,
        reader: &mut Reader,
    ) -> Option<Resize>;
}

/// [`SizeLoops::run_size`] of `L`, as a task for the size asked.
struct SizeLoop<'a, L> {
    out: &'a Output,
    settings: LoopSettings,
    reader: &'a mut Reader,
    loops: std::marker::PhantomData<L>,
}

impl<L: SizeLoops> SizedTask for SizeLoop<'_, L> {
    type Output = Option<Resize>;
    fn run<G: Size>(self) -> Self::Output {
        L::run_size::<G>(self.out, self.settings, self.reader)
    }
}

/// Reads `first`, then `input`, with the loop of `L` for each board size in turn: a loop runs
/// (11x11 first) until the input ends, or returns the command that asks for another size,
/// which that size's loop then handles first.
pub fn read_across_sizes<L: SizeLoops>(
    out: &Output,
    settings: LoopSettings,
    first: Option<Input>,
    input: std::sync::mpsc::Receiver<Input>,
) {
    let mut reader = Reader::new(first, input);
    hand_across_sizes(Standard::SIDE, None, |side, line| {
        if let Some(line) = line {
            reader.push_front(line);
        }
        let size_loop = SizeLoop::<L> {
            out,
            settings,
            reader: &mut reader,
            loops: std::marker::PhantomData,
        };
        run_sized(side, size_loop)
    });
}

/// The one loop across board sizes of every protocol: `size_loop(side, line)` runs the loop of
/// boards of `side` (`first_side` first), which handles `line` first, until the input ends or
/// it returns the command that asks for another size, handed to that size's loop. A protocol
/// that reads its lines through a [`Reader`] takes [`read_across_sizes`]; UCI, which handles
/// each line as it comes, takes this.
pub fn hand_across_sizes(
    first_side: u8,
    first: Option<Input>,
    mut size_loop: impl FnMut(u8, Option<Input>) -> Result<Option<Resize>, SizeError>,
) {
    let ended = across_sizes(first_side, first, |side, line| {
        let resize = size_loop(side, line)?;
        Ok::<_, SizeError>(resize.map(|resize| (resize.side, Some(resize.line))))
    });
    // The sides a command asks for were checked when it was read.
    if let Err(e) = ended {
        log::error!("{e}");
    }
}

/// Whether `input` is a command of `D` that ends searches.
fn ends<D: Dialogue>(input: &Input) -> bool {
    matches!(input.command::<D::Command>(), Some(Ok(c)) if D::ends_search(&c))
}

/// Runs `dialogue` on the reader's lines until it quits, the input ends, or it hands the game
/// to another board size: then the line that asked for it is returned.
pub fn drive<D: Dialogue>(
    dialogue: &mut D,
    engine: Searcher<D::G>,
    reader: &mut Reader,
) -> Option<Resize> {
    let mut search = Search {
        engine,
        done: reader.events_tx.clone(),
        running: false,
        hurry: false,
        fallback: None,
    };
    // Commands in the queue that end searches.
    let mut enders = reader.queue.iter().filter(|i| ends::<D>(i)).count();
    let mut resize = None;
    loop {
        if !search.running {
            if let Some(next) = reader.queue.pop_front() {
                if ends::<D>(&next) {
                    enders -= 1;
                }
                search.hurry = enders > 0 || reader.ended;
                let flow = match next.command::<D::Command>() {
                    None => Flow::Continue,
                    Some(Ok(command)) => dialogue.handle(command, &mut search),
                    Some(Err(error)) => {
                        dialogue.refuse(error);
                        Flow::Continue
                    }
                };
                match flow {
                    Flow::Continue => continue,
                    Flow::Quit => break,
                    Flow::Resize(side) => {
                        resize = Some(Resize { side, line: next });
                        break;
                    }
                }
            }
            if reader.ended {
                break;
            }
        }
        if !reader.asked && !reader.ended && reader.queue.len() < READ_AHEAD {
            reader.asked = reader.want.send(()).is_ok();
            if !reader.asked {
                reader.ended = true;
                search.stop();
                continue;
            }
        }
        match reader.events.recv() {
            Ok(Event::Input(input)) => {
                reader.asked = false;
                if ends::<D>(&input) {
                    enders += 1;
                    search.stop();
                }
                reader.queue.push_back(input);
            }
            Ok(Event::End) | Err(_) => {
                reader.asked = false;
                reader.ended = true;
                search.stop();
            }
            Ok(Event::Done) => {
                if let Some(result) = search.result() {
                    dialogue.searched(result, &mut search);
                }
            }
        }
    }
    search.stop();
    search.engine.wait();
    resize
}

/// A thread that reads one line of `input` each time it is asked to, as an event.
fn spawn_puller(input: Receiver<Input>, events: Sender<Event>) -> Sender<()> {
    let (want, wanted) = channel::<()>();
    std::thread::spawn(move || {
        for () in wanted {
            let event = match input.recv() {
                Ok(line) => Event::Input(line),
                Err(_) => Event::End,
            };
            let end = matches!(event, Event::End);
            if events.send(event).is_err() || end {
                break;
            }
        }
    });
    want
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Options;
    use crate::search::size::Standard;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::sync_channel;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    /// A protocol of three words: `think` searches without limit, `bye` ends the search and
    /// the loop, and any other line is said back.
    #[derive(Debug, PartialEq)]
    enum Word {
        Think,
        Bye,
        Say(String),
    }

    #[derive(Debug, PartialEq, thiserror::Error)]
    enum ToyError {
        #[error("blank line")]
        Blank,
        #[error("{0} bytes")]
        TooLong(usize),
    }

    impl LineError for ToyError {
        const BLANK: ToyError = ToyError::Blank;
        const TOO_LONG: fn(usize) -> ToyError = ToyError::TooLong;
    }

    impl FromStr for Word {
        type Err = ToyError;

        fn from_str(line: &str) -> Result<Word, ToyError> {
            Ok(match line {
                "" => return Err(ToyError::Blank),
                "think" => Word::Think,
                "bye" => Word::Bye,
                other => Word::Say(other.to_string()),
            })
        }
    }

    struct Toy {
        said: Arc<Mutex<Vec<String>>>,
    }

    impl Dialogue for Toy {
        type G = Standard;
        type Command = Word;
        type Error = ToyError;

        fn ends_search(command: &Word) -> bool {
            *command == Word::Bye
        }

        fn handle(&mut self, command: Word, search: &mut Search<Standard>) -> Flow {
            match command {
                Word::Think => search.start(
                    &Position::start(Default::default()).unwrap(),
                    Go {
                        infinite: true,
                        ..Go::default()
                    },
                    Box::new(|_| {}),
                ),
                Word::Bye => return Flow::Quit,
                Word::Say(text) => self.said.lock().unwrap().push(text),
            }
            Flow::Continue
        }

        fn refuse(&mut self, error: ToyError) {
            self.said.lock().unwrap().push(format!("refused {error}"));
        }

        fn searched(&mut self, result: SearchResult<Standard>, _: &mut Search<Standard>) {
            let best = result.best.map(|m| m.to_string()).unwrap_or_default();
            self.said.lock().unwrap().push(format!("moved {best}"));
        }
    }

    fn run(lines: &[&str], close: bool) -> (Vec<String>, Duration) {
        let said = Arc::new(Mutex::new(Vec::new()));
        let mut toy = Toy { said: said.clone() };
        let (tx, rx) = channel();
        for l in lines {
            tx.send(Input::Line(l.to_string())).unwrap();
        }
        tx.send(Input::TooLong(5)).unwrap();
        let start = Instant::now();
        let keep = (!close).then_some(tx);
        drive(
            &mut toy,
            Searcher::new(Options::default()),
            &mut Reader::new(None, rx),
        );
        drop(keep);
        let said = said.lock().unwrap().clone();
        (said, start.elapsed())
    }

    #[test]
    fn an_ending_word_stops_every_search_before_it_and_all_is_answered_in_order() {
        let (said, took) = run(&["think", "say a", "think", "bye", "say never"], false);
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said[0].starts_with("moved ") && said[2].starts_with("moved "));
        assert_eq!(said[1], "say a");
        assert!(took < Duration::from_secs(10), "{took:?}");
    }

    /// The hang `hnefi fuzz --protocol otep` found: fed as fast as it read, the loop took every
    /// line while a search ran, so that commands piled up far ahead of their answers.
    #[test]
    fn a_search_reads_only_a_few_commands_ahead() {
        let said = Arc::new(Mutex::new(Vec::new()));
        let mut toy = Toy { said: said.clone() };
        let engine = Searcher::new(Options::default());
        let stopper = engine.stopper();
        let (tx, rx) = sync_channel(0);
        let driver =
            std::thread::spawn(move || drive(&mut toy, engine, &mut Reader::new(None, rx)));
        // Handed over, so taken only once the loop asks for a line: while the search runs.
        tx.send(Input::Line("think".into())).unwrap();
        let taken = Arc::new(AtomicUsize::new(0));
        let host = {
            let taken = taken.clone();
            std::thread::spawn(move || {
                for i in 0..1000 {
                    tx.send(Input::Line(i.to_string())).unwrap();
                    taken.fetch_add(1, Ordering::SeqCst);
                }
                tx.send(Input::Line("bye".into())).unwrap();
            })
        };
        let start = Instant::now();
        while taken.load(Ordering::SeqCst) < READ_AHEAD && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(taken.load(Ordering::SeqCst), READ_AHEAD);
        // The search ends by itself (as a host's would, at its limits): the rest is taken,
        // and everything is answered in order.
        stopper.store(true, Ordering::SeqCst);
        host.join().unwrap();
        driver.join().unwrap();
        let said = said.lock().unwrap();
        assert_eq!(said.len(), 1001);
        assert!(said[0].starts_with("moved "), "{}", said[0]);
        for (i, s) in said[1..].iter().enumerate() {
            assert_eq!(*s, i.to_string());
        }
    }

    #[test]
    fn the_end_of_input_stops_searches_and_ends_the_loop() {
        let (said, took) = run(&["say a", "think", "think"], true);
        assert_eq!(said[0], "say a");
        assert!(said[1].starts_with("moved ") && said[2].starts_with("moved "));
        assert_eq!(said[3], "refused 5 bytes");
        assert!(took < Duration::from_secs(10), "{took:?}");
    }
}

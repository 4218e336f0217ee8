//! `hnefi datagen` and `hnefi games-data`: training samples from self-play and from the
//! real games.

use super::CliError;
use super::common::{
    EvalChoice, RulesArg, games_text, interrupt_flag, parse_shard, progress_bar, read_text,
};
use super::output::write_document;
use clap::{Args, Subcommand};
use hnefi::search::size::Standard;
use hnefi::search::size::{Size, SizedTask, run_sized};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
    /// File the samples are appended to, a game at a time (FEN;SCORE;RESULT;GAME[;BESTMOVE] lines), after
    /// a header line (`# hnefi datagen shard I/N settings HASH: ...`).
    #[arg(short, long, required = true)]
    pub output: Option<PathBuf>,
    /// Real games (copenhagen.csv format) whose openings start the games: on 11x11 boards
    /// from Copenhagen's start only; elsewhere games start with random moves alone [default:
    /// the real games of data/copenhagen.csv, built in].
    #[arg(long, conflicts_with = "starts")]
    pub book: Option<PathBuf>,
    /// Positions to play on instead of openings, a line each as `hnefi match --openings`
    /// reads them (a FEN, then any moves from it; `#` comments): game g starts where line g
    /// mod N ends, after --random-plies random moves (default 2), with no balance check. For
    /// playing surrounded kings out deep, as positions/stuck-attackers.fen.
    #[arg(long, value_name = "FILE")]
    pub starts: Option<PathBuf>,
    /// Games in the whole run (all shards), numbered 0 to N-1.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Nodes searched per move by the defenders alone, for games against a deeper defense
    /// than the attackers' (default: --nodes).
    #[arg(long)]
    pub defender_nodes: Option<u64>,
    /// Nodes searched to judge whether a start is even (default: 4 x --nodes).
    #[arg(long)]
    pub balance_nodes: Option<u64>,
    /// Seed: game g is the same whatever the shard; its GAME field is seed * 10^9 + g.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only games g with g % N == I - 1; `slurm`: I and N from the Slurm job array this
    /// runs in (its task's place in the array, and the array's size).
    #[arg(long, default_value = "1/1", value_name = "I/N|slurm")]
    pub shard: String,
    /// Plies of a real game's opening at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub book_plies: usize,
    /// Random legal moves after the opening (default: 2 after a real game's opening, 6
    /// without one).
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Keep a start only if its score is within this many cp of even.
    #[arg(long, default_value_t = 300)]
    pub balance: i32,
    /// A game going on past this many plies (from the initial position) is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Adjudicate a game once the search score has been this many cp or more for one side
    /// (from its view) for --adjudicate-plies plies in a row: that side wins.
    #[arg(long, default_value_t = hnefi::learn::datagen::ADJUDICATE_CP)]
    pub adjudicate_cp: i32,
    /// Plies in a row past --adjudicate-cp that end a game; 0 plays every game out by the
    /// rules.
    #[arg(long, default_value_t = hnefi::learn::datagen::ADJUDICATE_PLIES)]
    pub adjudicate_plies: usize,
    #[command(flatten)]
    pub rules: RulesArg,
    /// Games played at once, one engine thread each (default: all cores).
    #[arg(long, alias = "concurrency")]
    pub threads: Option<usize>,
    /// Transposition table per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The evaluation the games are played with.
    #[command(flatten)]
    pub eval: EvalChoice,
    /// Resume: keep the games already in the output file and play the rest (the last game in
    /// the file is cut and played again, as an interruption may have cut it short).
    #[arg(long)]
    pub skip_existing: bool,
}

#[derive(Subcommand)]
pub enum DatagenCommand {
    /// Join the files of a run's shards into the file the unsharded run writes, once their
    /// headers show they are all the shards of one run, each with all its games.
    Merge {
        /// The shards' output files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The merged file (it must not exist yet).
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// The positions of a `--starts` file, read as an openings file is (a position, and any moves
/// from it, a line) and checked under `rules` as one is: each start is where its line ends.
fn read_starts<G: Size>(
    path: &std::path::Path,
    start: &hnefi::board::Board<G>,
    rules: hnefi::board::Rules,
) -> Result<Vec<String>, CliError> {
    let invalid = |reason: String| CliError::Invalid {
        path: path.to_path_buf(),
        reason,
    };
    let openings = hnefi::tournament::openings::load_openings(&read_text(path)?, start, rules)
        .map_err(|e| invalid(e.to_string()))?;
    if openings.is_empty() {
        return Err(invalid("no positions in it (one FEN a line)".to_string()));
    }
    Ok(openings
        .iter()
        .map(|o| hnefi::board::notation::to_fen(o.position(rules).board()))
        .collect())
}

fn clock(t: Duration) -> String {
    let s = t.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

pub fn datagen(args: DatagenArgs) -> Result<(), CliError> {
    if let Some(DatagenCommand::Merge { files, output }) = &args.command {
        return merge(files, output);
    }
    let (rules, _) = args.rules.rules_and_start();
    run_sized(rules.width, args)?
}

/// `hnefi datagen merge`: the merged file is written whole or not at all.
fn merge(files: &[PathBuf], output: &std::path::Path) -> Result<(), CliError> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(output)
        .map_err(CliError::write(output))?;
    let mut writer = std::io::BufWriter::new(file);
    match hnefi::learn::datagen::merge_shards(files, &mut writer, output) {
        Ok((header, samples)) => {
            note!(
                "datagen merge: {} shards, {samples} samples written to {} (settings {:016x})",
                files.len(),
                output.display(),
                header.hash
            );
            Ok(())
        }
        Err(e) => {
            drop(writer);
            let _ = std::fs::remove_file(output);
            Err(e.into())
        }
    }
}

impl SizedTask for DatagenArgs {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        datagen_on::<G>(self)
    }
}

fn datagen_on<G: Size>(args: DatagenArgs) -> Result<(), CliError> {
    use hnefi::learn::datagen::{DatagenSettings, book_from_games, open_output, run};
    let output = args
        .output
        .clone()
        .ok_or(CliError::Conflict("datagen needs --output"))?;
    if let Some(n) = args.threads.filter(|n| !(1..=256).contains(n)) {
        return Err(CliError::out_of_range("--threads", n, "1-256"));
    }
    let (eval, net) = args.eval.load()?;
    let (rules, start) = args.rules.start_board::<G>()?;
    let starts = match &args.starts {
        Some(path) => read_starts(path, &start, rules)?,
        None => Vec::new(),
    };
    let start = hnefi::board::notation::to_fen(&start);
    // Real games' openings exist only for Copenhagen's board and start.
    let with_book = G::SIDE == 11 && start == hnefi::board::START_FEN && starts.is_empty();
    let book_plies = if with_book { args.book_plies } else { 0 };
    let settings = DatagenSettings {
        rules,
        start,
        starts,
        nodes: args.nodes,
        defender_nodes: args.defender_nodes,
        balance_nodes: args.balance_nodes.unwrap_or(args.nodes.saturating_mul(4)),
        book_plies,
        random_plies: args
            .random_plies
            .unwrap_or(if book_plies > 0 || args.starts.is_some() {
                2
            } else {
                6
            }),
        balance: args.balance,
        max_plies: args.max_plies,
        adjudicate_cp: args.adjudicate_cp,
        adjudicate_plies: args.adjudicate_plies,
        seed: args.seed,
        games: args.games,
        shard: {
            let (i, n) = parse_shard(&args.shard)?;
            (i.into(), n.into())
        },
        hash_mb: args.hash,
        eval,
        net,
    };
    settings.check()?;
    let book = if book_plies > 0 {
        let text = games_text(args.book.as_deref())?;
        sized_book::<G>(book_from_games(&text, book_plies, settings.rules))
    } else {
        Vec::new()
    };
    let header = settings.header(&book);
    let (mut file, skip) = open_output::<G>(&output, &settings, &header, args.skip_existing)?;
    let todo = settings.shard_games().filter(|g| !skip.contains(g)).count() as u64;
    note!(
        "datagen: {todo} games to play (shard {}, {} already in {}), {} nodes a move{}, \
         {} evaluation, {} openings of {} plies",
        format_args!("{}/{}", settings.shard.0, settings.shard.1),
        skip.len(),
        output.display(),
        settings.nodes,
        match settings.defender_nodes {
            Some(n) => format!(" ({n} for the defenders)"),
            None => String::new(),
        },
        args.eval.describe(),
        book.len(),
        settings.book_plies
    );
    let tty = std::io::stderr().is_terminal();
    let bar = progress_bar(todo, "games");
    let mut last_log = Instant::now();
    let stop = interrupt_flag(
        "hnefi: stopping once the games in play are over (Ctrl-C again to quit at once)",
    );
    let output = &output;
    let totals = run(
        &settings,
        &book,
        &skip,
        args.threads,
        &stop,
        |game, totals| {
            file.append(game.text().as_bytes()).map_err(|source| {
                hnefi::learn::datagen::DatagenError::Io {
                    path: output.clone(),
                    source,
                }
            })?;
            let rate = totals.positions_per_second();
            if tty {
                bar.inc(1);
                bar.set_message(format!("{} positions, {rate:.0}/s", totals.positions));
            } else if last_log.elapsed() >= Duration::from_secs(30) || totals.games == todo {
                last_log = Instant::now();
                let left = todo.saturating_sub(totals.games) as f64;
                let eta = totals.elapsed.mul_f64(left / totals.games.max(1) as f64);
                note!(
                    "datagen: {}/{todo} games, {} positions, {rate:.0} positions/s, {} < {}",
                    totals.games,
                    totals.positions,
                    clock(totals.elapsed),
                    clock(eta)
                );
            }
            Ok(())
        },
    );
    bar.finish_and_clear();
    let totals = totals?;
    note!(
        "datagen: {} games, {} positions (attackers won {}, defenders won {}, drawn {}), \
         {:.0} positions/s over {:.1} s, {:.2} starts drawn per game, {} games adjudicated, \
         {} repeated positions skipped; written to {}",
        totals.games,
        totals.positions,
        totals.attackers,
        totals.defenders,
        totals.draws,
        totals.positions_per_second(),
        totals.elapsed.as_secs_f64(),
        totals.start_tries as f64 / totals.games.max(1) as f64,
        totals.adjudicated,
        totals.duplicates,
        output.display()
    );
    if stop.load(Ordering::Relaxed) && totals.games < todo {
        return Err(CliError::Interrupted {
            played: totals.games,
            todo,
        });
    }
    Ok(())
}

/// The 11x11 openings as moves of `G`, which is 11x11 whenever there are any.
fn sized_book<G: Size>(
    book: Vec<Vec<hnefi::board::Move<Standard>>>,
) -> Vec<Vec<hnefi::board::Move<G>>> {
    book.into_iter()
        .filter_map(|line| {
            line.iter()
                .map(|m| hnefi::board::Move::<G>::parse(&m.to_string()).ok())
                .collect()
        })
        .collect()
}

#[derive(Args)]
pub struct GamesDataArgs {
    /// Game file in the copenhagen.csv format [default: the real games of
    /// data/copenhagen.csv, built in].
    pub games: Option<PathBuf>,
    /// Where to write the samples (FEN;-;RESULT;LINE); `-` is standard output.
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
}

pub fn games_data(args: GamesDataArgs) -> Result<(), CliError> {
    let text = games_text(args.games.as_deref())?;
    let (samples, r) = hnefi::learn::games::samples_from_games(&text);
    let to_stdout = args.output.as_os_str() == "-";
    let text: String = samples.iter().map(|s| format!("{s}\n")).collect();
    write_document(
        (!to_stdout).then_some(args.output.as_path()),
        text.as_bytes(),
    )?;
    let name = if to_stdout {
        PathBuf::from("standard output")
    } else {
        args.output.clone()
    };
    note!(
        "games-data: {} lines: {} games used (attackers won {}, defenders won {}, drawn {}), \
         {} unfinished skipped, {} unreadable, {} cut short at an illegal move; {} positions (from games won by the attackers {}, by the defenders \
         {}, drawn {}) written to {}",
        r.lines,
        r.games.iter().sum::<usize>(),
        r.games[0],
        r.games[1],
        r.games[2],
        r.ongoing,
        r.unreadable,
        r.cut_short,
        samples.len(),
        r.positions[0],
        r.positions[1],
        r.positions[2],
        name.display()
    );
    Ok(())
}

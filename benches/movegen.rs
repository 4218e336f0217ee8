//! Move generation, move counting and make-move on positions from the perft suite.

use criterion::{Criterion, criterion_group, criterion_main};
use hnefi::board::notation::parse_fen;
use hnefi::board::{Board, Eleven, MoveList, Rulebook, Rules};
use std::hint::black_box;

fn positions() -> Vec<Board<Eleven>> {
    let text = include_str!("../positions/perft.epd");
    let mut boards = vec![Board::start()];
    boards.extend(
        text.lines()
            // The presets' starts on other boards carry `; rules PRESET`.
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty() && !l.contains("; rules "))
            .map(|l| parse_fen(l.split(';').next().unwrap_or_default()).expect("valid FEN")),
    );
    boards
}

fn movegen(c: &mut Criterion) {
    let boards = positions();
    let rules = Rules::default();
    let book = Rulebook::new(rules);
    let per = boards.len() as u64;
    let mut g = c.benchmark_group("board");
    g.throughput(criterion::Throughput::Elements(per));
    g.bench_function("generate_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for board in &boards {
                let mut list = MoveList::new();
                black_box(board).generate_moves(&hnefi::board::Rulebook::default(), &mut list);
                n += list.len();
            }
            n
        })
    });
    g.bench_function("count_moves", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|b| black_box(b).count_moves(&hnefi::board::Rulebook::default()))
                .sum::<u32>()
        })
    });
    // One make-move per position: the first generated move, with captures and the game-end
    // checks that perft and search do after it.
    let firsts: Vec<_> = boards
        .iter()
        .map(|b| {
            let mut list = MoveList::new();
            b.generate_moves(&hnefi::board::Rulebook::default(), &mut list);
            (*b, list[list.len() / 2])
        })
        .collect();
    g.bench_function("play_and_check", |b| {
        b.iter(|| {
            let mut over = 0;
            for &(board, mv) in &firsts {
                let mut child = black_box(board);
                child.play(mv, &hnefi::board::Rulebook::new(rules));
                over += book.mover_win(&child, mv).is_some() as u32;
            }
            over
        })
    });
    g.finish();
    c.bench_function("perft_3_start", |b| {
        let start = Board::start();
        b.iter(|| hnefi::perft::perft(black_box(&start), 3, &rules))
    });
}

criterion_group!(benches, movegen);
criterion_main!(benches);

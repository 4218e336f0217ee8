fn main() {
    let b = hnefi::board::Board::start();
    let rules = hnefi::board::Rules::default();
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let t = std::time::Instant::now();
    let n: u64 = hnefi::perft::divide(&b, d, &rules).iter().map(|x| x.1).sum();
    println!("{n} {:?}", t.elapsed());
}

use grail::{Game, State};
fn main() {
    let path = std::env::args().nth(1).unwrap_or("rules/tamoul.rules".into()); let np: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(4);
    let game = match Game::load(&path) { Ok(g) => g, Err(d) => { eprint!("{}", d.render_plain()); std::process::exit(1) } };
    eprint!("{}", game.warnings().render_plain());
    let mut s = State::new(&game, np, 3, &game.default_options()).unwrap();
    println!("{}", s.view(&game, grail::Viewer::All));
    for a in s.legal_actions(&game) { println!("  {}", s.label(&game, a)); }
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut n = 0;
    while !s.is_over() && n < 100000 {
        let acts = s.legal_actions(&game);
        if acts.is_empty() { println!("STUCK"); break; }
        let a = acts[rng.random_range(0..acts.len())];
        if let Err(e) = s.apply(&game, a) { println!("ERR {e}"); break; }
        n += 1;
    }
    println!("{n} decisions, turns {}", s.turns);
    println!("{}", s.view(&game, grail::Viewer::All));
}

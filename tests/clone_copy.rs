//! A state copied into a warm one (`clone_from`) allocates nothing and
//! plays on as the original does, in every game of the bench; a copy into
//! a state of another game takes that game's table whole. The allocator
//! counts per thread, so tests running beside these do not count.

use grail::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

#[path = "common/positions.rs"]
mod shared;
use shared::{FILES, positions};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(Cell::get)
}

fn load(path: &str) -> Game {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    Game::load(&full).unwrap_or_else(|d| panic!("{}", d.render_plain()))
}

#[test]
fn a_copy_into_a_warm_state_allocates_nothing_in_every_game() {
    for f in FILES {
        let game = load(f);
        let pos = positions(&game, 5, 60);
        assert!(pos.len() > 10, "{f}: a game of a few moves");
        let mut warm = pos[pos.len() - 1].clone();
        // one pass to grow the buffers to the largest position, then none
        for p in &pos {
            warm.clone_from(p);
        }
        for p in pos.iter().chain(pos.iter().rev()) {
            let a0 = allocs();
            warm.clone_from(p);
            assert_eq!(allocs() - a0, 0, "{f}: clone_from allocated");
            assert!(warm.same_as(p), "{f}: the copy differs");
            assert!(warm.copy_bytes() > 0 && warm.copy_bytes() == p.copy_bytes());
        }
    }
}

#[test]
fn a_copy_plays_on_as_its_original() {
    for f in FILES {
        let game = load(f);
        let pos = positions(&game, 9, 40);
        let mut warm = pos[0].clone();
        for (k, p) in pos.iter().enumerate().step_by(7) {
            let mut orig = p.clone();
            warm.clone_from(p);
            let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
            for _ in 0..30 {
                let (a, b) = (orig.legal_actions(&game), warm.legal_actions(&game));
                assert_eq!(a, b, "{f}: the copy lists other actions");
                if a.is_empty() || orig.is_over() {
                    break;
                }
                let pick = a[rng.random_range(0..a.len())];
                orig.apply_unchecked(&game, pick).expect("applies");
                warm.apply_unchecked(&game, pick).expect("applies");
                assert!(warm.same_as(&orig), "{f}: the copy went another way");
            }
        }
    }
}

#[test]
fn a_copy_into_a_state_of_another_game_takes_its_table_whole() {
    let (chess, camelot) = (load("examples/chess.rules"), load("rules/camelot101.rules"));
    let (c, k) = (positions(&chess, 1, 12), positions(&camelot, 1, 12));
    let mut warm = k[11].clone();
    warm.clone_from(&c[11]);
    assert!(warm.same_as(&c[11]));
    assert_eq!(warm.legal_actions(&chess), c[11].legal_actions(&chess));
    warm.clone_from(&k[5]);
    assert!(warm.same_as(&k[5]));
    assert_eq!(warm.legal_actions(&camelot), k[5].legal_actions(&camelot));
}

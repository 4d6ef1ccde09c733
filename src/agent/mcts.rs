//! Tree search: UCT (`mcts:N`) and single-observer information-set MCTS
//! (`ismcts:N`, Cowling, Powley and Whitehouse 2012), one implementation.
//!
//! Both search from the chooser's seat and never read what it cannot see:
//! every iteration starts from a determinization of the root (see
//! `State::determinize`). UCT samples one determinization per move and
//! searches that world; IS-MCTS samples a fresh one every iteration, so the
//! tree's statistics average over the worlds the seat cannot tell apart.
//! A node is reached by a move as the root's seat sees it
//! (`State::observed_action`), so nodes stand for information sets; a move
//! is chosen among those legal in the iteration's world by UCB1 with the
//! move's *availability* count in place of its parent's visits. One
//! unexplored move is added per iteration, then a random rollout (capped or
//! to the end) is scored for every player and backed up, each node keeping
//! the reward of the player who made its move.
//!
//! Proven wins: a move after which the game ended with its player the only
//! winner, every time it was tried, is always taken, in the tree and at
//! the root (before the most visited move). In UCT's one world the proof
//! also climbs to the same player's earlier decisions of one move (a piece,
//! then its square). A capped rollout's heuristic value stays below a win
//! (`Scorer`), so a mate is never worth the same as a lead.
//!
//! Nodes live in an arena (`Vec<Node>`, children as sibling lists) reused
//! from move to move; the buffers are kept too, so a warm search allocates
//! only when the tree grows. Each iteration copies the root's sample into a
//! warm state (`clone_from`) and applies moves along the path: measured
//! against make/unmake (`tests/agents_speed.rs`, docs/agents.md) the copy
//! is as fast or faster, since a rollout would unmake every move.

use super::Agent;
use super::search::{MoveStat, Scorer, SearchSpec, keys_into, rollout, sole_winner};
use crate::engine::{Action, Determinizer, Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const NONE: u32 = u32::MAX;
/// The exploration constant of UCB1 (rewards are 0 to 1).
const EXPLORE: f64 = 0.7;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The move that leads here, as the root's seat sees it.
    key: u64,
    /// The player who made that move.
    player: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Iterations in which this move was legal when its parent was reached.
    avail: u32,
    /// Visits in which the game ended right after this move with `player`
    /// its only winner: equal to `visits`, the move is a proven win (in
    /// every world tried) and is always taken.
    won: u32,
    /// UCT only (one world): the move wins by force, since it ends the game
    /// won or the same player's next decision has a proven win (a move
    /// made of several decisions, a piece and then its square).
    sure: bool,
    /// Sum of `player`'s rewards.
    total: f64,
}

impl Node {
    /// Whether the move won the game every time it was tried.
    fn proven(&self) -> bool {
        self.sure || (self.visits > 0 && self.won == self.visits)
    }

    fn new(key: u64, player: u8) -> Node {
        Node {
            key,
            player,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            won: 0,
            sure: false,
            total: 0.0,
        }
    }
}

/// A UCT or IS-MCTS player.
pub struct TreeAgent {
    spec: SearchSpec,
    /// A fresh determinization every iteration (IS-MCTS) or one per move (UCT).
    resample: bool,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
    det: Determinizer,
    /// The root's sample (UCT) and the iteration's working state.
    world: Option<State>,
    work: Option<State>,
    path: Vec<u32>,
    actions: Vec<Action>,
    keys: Vec<u64>,
    root_keys: Vec<u64>,
    rewards: Vec<f64>,
    scorer: Scorer,
}

impl TreeAgent {
    /// UCT over one determinization per move.
    pub fn uct(spec: SearchSpec, seed: u64) -> TreeAgent {
        TreeAgent::new(spec, false, seed)
    }

    /// Single-observer IS-MCTS: a determinization per iteration.
    pub fn ismcts(spec: SearchSpec, seed: u64) -> TreeAgent {
        TreeAgent::new(spec, true, seed)
    }

    fn new(spec: SearchSpec, resample: bool, seed: u64) -> TreeAgent {
        TreeAgent {
            spec,
            resample,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            det: Determinizer::default(),
            world: None,
            work: None,
            path: Vec::new(),
            actions: Vec::new(),
            keys: Vec::new(),
            root_keys: Vec::new(),
            rewards: Vec::new(),
            scorer: Scorer::default(),
        }
    }

    /// Search the position and report every root move searched, most
    /// visited first (ties: better value, then lower index).
    pub fn search(&mut self, game: &Game, state: &State, actions: &[Action]) -> Vec<MoveStat> {
        let Some(seat) = state.chooser() else {
            return Vec::new();
        };
        keys_into(game, state, actions, seat, &mut self.root_keys);
        self.nodes.clear();
        self.nodes.push(Node::new(0, seat as u8));
        if !self.resample {
            let world = self.world.get_or_insert_with(|| state.clone());
            state.determinize_into(game, seat, &mut self.rng, &mut self.det, world);
        }
        self.scorer.reset();
        let mut clock = self.spec.budget.start();
        while clock.tick() {
            self.iterate(game, state, seat);
        }
        let mut stats = Vec::new();
        let mut proven = Vec::new();
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let n = self.nodes[c as usize];
            if let Some(i) = self.root_keys.iter().position(|k| *k == n.key) {
                proven.push((i, n.proven()));
                stats.push(MoveStat {
                    action: i,
                    visits: n.visits,
                    value: if n.visits == 0 {
                        0.0
                    } else {
                        n.total / f64::from(n.visits)
                    },
                });
            }
            c = n.next_sibling;
        }
        let won = |i: usize| proven.iter().any(|&(j, p)| j == i && p);
        stats.sort_by(|a, b| {
            won(b.action)
                .cmp(&won(a.action))
                .then(b.visits.cmp(&a.visits))
                .then(b.value.total_cmp(&a.value))
                .then(a.action.cmp(&b.action))
        });
        stats
    }

    /// One iteration: sample, select, expand one move, roll out, back up.
    fn iterate(&mut self, game: &Game, root: &State, seat: usize) {
        let mut work = self.work.take().unwrap_or_else(|| root.clone());
        match (&self.world, self.resample) {
            (Some(world), false) => work.clone_from(world),
            _ => root.determinize_into(game, seat, &mut self.rng, &mut self.det, &mut work),
        }
        let won_by = self.descend(game, &mut work, seat);
        rollout(
            game,
            &mut work,
            &mut self.rng,
            &mut self.actions,
            self.spec.cap,
        );
        self.scorer.rewards(game, &work, &mut self.rewards);
        self.back_up(won_by);
        self.work = Some(work);
    }

    /// Selection and expansion: from the root down the tree (recording the
    /// path) until a new node is added, the game ends or a player wins
    /// alone; returns the node of that sole win, or `NONE`.
    fn descend(&mut self, game: &Game, work: &mut State, seat: usize) -> u32 {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        loop {
            if work.is_over() {
                return NONE;
            }
            work.legal_actions_into(game, &mut self.actions);
            let Some(player) = work.chooser().filter(|_| !self.actions.is_empty()) else {
                return NONE;
            };
            keys_into(game, work, &self.actions, seat, &mut self.keys);
            let (child, i, new) = self.select(node, player);
            self.path.push(child);
            node = child;
            if work.apply_unchecked(game, self.actions[i]).is_err() {
                return NONE;
            }
            if sole_winner(game, work, player) {
                return child;
            }
            if new {
                return NONE;
            }
        }
    }

    /// The child of `node` to follow for the moves in `self.keys`: a proven
    /// win, else an untried move (chosen by reservoir sampling, added as a
    /// new child), else the best by UCB. Counts availability on the way.
    /// Returns the child, the index of its move, and whether it is new.
    fn select(&mut self, node: u32, player: usize) -> (u32, usize, bool) {
        let ln_parent = f64::from(self.nodes[node as usize].visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, NONE, 0usize);
        let mut untried = 0u32;
        let mut pick_untried = None;
        let mut sure = false;
        for (i, key) in self.keys.iter().enumerate() {
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE && self.nodes[c as usize].key != *key {
                c = self.nodes[c as usize].next_sibling;
            }
            if c == NONE {
                // Reservoir sampling over the untried moves.
                untried += 1;
                if self.rng.random_range(0..untried) == 0 {
                    pick_untried = Some(i);
                }
                continue;
            }
            let n = &mut self.nodes[c as usize];
            n.avail += 1;
            if n.proven() {
                // A move that always won: nothing else is worth trying.
                best = (f64::INFINITY, c, i);
                sure = true;
                continue;
            }
            let ln = if self.resample {
                f64::from(n.avail).ln()
            } else {
                ln_parent
            };
            let visits = f64::from(n.visits.max(1));
            let ucb = n.total / visits + EXPLORE * (ln / visits).sqrt();
            if ucb > best.0 && !sure {
                best = (ucb, c, i);
            }
        }
        match pick_untried.filter(|_| !sure) {
            Some(i) => {
                let id = self.nodes.len() as u32;
                let mut n = Node::new(self.keys[i], player as u8);
                n.avail = 1;
                n.next_sibling = self.nodes[node as usize].first_child;
                self.nodes[node as usize].first_child = id;
                self.nodes.push(n);
                (id, i, true)
            }
            None => (best.1, best.2, false),
        }
    }

    /// Adds the rollout's rewards along the path; a sole win marks its node
    /// (and, with one world, the same player's decisions leading to it) sure.
    fn back_up(&mut self, won_by: u32) {
        if won_by != NONE {
            self.nodes[won_by as usize].won += 1;
            if !self.resample {
                // One world: the win is certain, and so is every decision of
                // the same player that led straight to it.
                let mut k = self.path.len() - 1;
                self.nodes[won_by as usize].sure = true;
                while k > 1 {
                    let (up, down) = (self.path[k - 1] as usize, self.path[k] as usize);
                    if self.nodes[up].player != self.nodes[down].player {
                        break;
                    }
                    self.nodes[up].sure = true;
                    k -= 1;
                }
            }
        }
        for &n in &self.path {
            let n = &mut self.nodes[n as usize];
            n.visits += 1;
            n.total += self.rewards.get(n.player as usize).copied().unwrap_or(0.0);
        }
    }
}

impl Agent for TreeAgent {
    fn choose(&mut self, game: &Game, state: &State, actions: &[Action]) -> usize {
        if actions.len() <= 1 {
            return 0;
        }
        self.search(game, state, actions)
            .first()
            .map_or(0, |m| m.action)
    }

    fn analyse(&mut self, game: &Game, state: &State, actions: &[Action]) -> Option<Vec<MoveStat>> {
        Some(self.search(game, state, actions))
    }
}

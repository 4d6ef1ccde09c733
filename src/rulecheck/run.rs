//! A whole rulecheck run: [`prepare`] reads and statically checks every
//! file and works out its columns (bad `--set`, `--vary`, `--variant` or
//! `--players` values are one-line errors); [`Run::simulate`] plays the
//! games (all of them, or one shard's slice); [`Run::finish`] turns the
//! counts into findings and the design-metrics table. A merge of shard
//! parts goes through the same [`Run::finish`], so it gives the same report.

use super::plan::{Column, Plan};
use super::playout::Table;
use super::simulate;
use super::stats::{Layout, Stats};
use super::verdicts::{self, Input};
use super::{Config, Context, FileReport, Report, read_and_check};
use crate::engine::{Compiled, Game};
use std::path::Path;

/// The simulation behind one file's report.
#[derive(Clone, Debug)]
pub struct SimSection {
    pub plan: Plan,
    /// The game's option names, in the order of `Column::options`.
    pub option_names: Vec<String>,
    pub columns: Vec<Column>,
    /// One per column.
    pub stats: Vec<Stats>,
    /// The rulecheck command that runs this simulation again.
    pub command: String,
    /// Code that never ran only because of options fixed in the run.
    pub notes: Vec<String>,
}

/// One file, checked and ready to simulate.
pub(super) struct Prepared {
    pub path: String,
    /// FNV-1a of the text (0 when unreadable), to tie shard parts to it.
    pub digest: u64,
    pub report: FileReport,
    pub compiled: Option<Compiled>,
    /// Present when the file compiled and games are to be played.
    pub game: Option<(Game, Layout)>,
    pub columns: Vec<Column>,
}

/// Files checked statically, with what their simulation will play.
pub struct Run {
    pub plan: Plan,
    pub(super) config: Config,
    pub(super) files: Vec<Prepared>,
}

pub(super) fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Check every file statically and plan its columns.
pub fn prepare<P: AsRef<Path>>(paths: &[P], config: &Config, plan: &Plan) -> Result<Run, String> {
    let mut files = Vec::new();
    for p in paths {
        let path = p.as_ref().display().to_string();
        let (report, compiled) = read_and_check(p.as_ref(), config);
        let digest = if report.unreadable.is_some() {
            0
        } else {
            fnv(&report.source.text)
        };
        let mut game = None;
        let mut columns = Vec::new();
        if plan.games > 0
            && let Some(c) = &compiled
            && let Some(graph) = &c.graph
        {
            let g = Game::from_source(&report.source.name, &report.source.text)
                .map_err(|_| format!("{path}: does not compile a second time"))?;
            columns = plan.columns(&g).map_err(|e| format!("{path}: {e}"))?;
            game = Some((g, Layout::of(graph)));
        }
        files.push(Prepared {
            path,
            digest,
            report,
            compiled,
            game,
            columns,
        });
    }
    Ok(Run {
        plan: plan.clone(),
        config: config.clone(),
        files,
    })
}

impl Run {
    /// The games this run plays in each column.
    fn range(&self) -> std::ops::Range<u64> {
        match self.plan.shard {
            Some(s) => s.range(self.plan.games),
            None => 0..self.plan.games,
        }
    }

    /// How many games [`Run::simulate`] plays in all.
    pub fn total_games(&self) -> u64 {
        let per = self.range().end - self.range().start;
        self.files
            .iter()
            .filter(|f| f.game.is_some())
            .map(|f| f.columns.len() as u64 * per)
            .sum()
    }

    /// Play the games: for each file, the stats of each column. `jobs`
    /// threads (all cores when `None`); `tick` after each game.
    pub fn simulate(&self, jobs: Option<usize>, tick: &(dyn Fn() + Sync)) -> Vec<Vec<Stats>> {
        let agent = self.plan.agent_kind();
        simulate::with_jobs(jobs, || {
            self.files
                .iter()
                .map(|f| {
                    let Some((game, layout)) = &f.game else {
                        return Vec::new();
                    };
                    f.columns
                        .iter()
                        .map(|c| {
                            let t = Table {
                                game,
                                layout,
                                players: c.players,
                                options: &c.options,
                                agent,
                                max_decisions: self.plan.max_decisions,
                            };
                            simulate::column(&t, self.plan.seed, self.range(), tick)
                        })
                        .collect()
                })
                .collect()
        })
    }

    /// The report: static findings, then for each simulated file its
    /// simulation findings and its stats (`stats` as from [`Run::simulate`]).
    pub fn finish(self, stats: Vec<Vec<Stats>>) -> Report {
        let mut files = Vec::new();
        let plan = self.plan;
        let repro_dir = self.config.repro_dir.clone();
        for (mut f, stats) in self.files.into_iter().zip(stats) {
            if let (Some((game, layout)), Some(c)) = (&f.game, &f.compiled)
                && let Some(graph) = &c.graph
            {
                let (found, notes) = {
                    let cx = Context::new(&f.report.source, &c.hir, graph);
                    verdicts::findings(&Input {
                        cx: &cx,
                        game,
                        layout,
                        plan: &plan,
                        path: &f.path,
                        columns: &f.columns,
                        stats: &stats,
                        repro_dir: repro_dir.as_deref(),
                    })
                };
                for (lint, d, ev) in found {
                    f.report.add_with(lint, d, ev);
                }
                f.report.sort();
                f.report.sim = Some(SimSection {
                    command: plan.command(&f.path, &f.columns),
                    notes,
                    plan: plan.clone(),
                    option_names: game.options().iter().map(|o| o.name.clone()).collect(),
                    columns: f.columns,
                    stats,
                });
            }
            files.push(f.report);
        }
        Report { files }
    }
}

//! A whole rulecheck run: [`prepare`] reads and statically checks every
//! file and works out its columns (bad `--set`, `--vary`, `--variant` or
//! `--players` values are one-line errors); [`Run::simulate`] plays the
//! games (all of them, or one shard's slice); [`Run::finish`] turns the
//! counts into findings and the design-metrics table. A merge of shard
//! parts goes through the same [`Run::finish`], so it gives the same report.

use super::explore::{Budget, Explored};
use super::plan::{Column, Plan};
use super::playout::Table;
use super::simulate;
use super::stats::{Layout, Stats};
use super::verdicts::{self, Input};
use super::{Config, Context, FileReport, Report, read_and_check};
use crate::engine::Game;
use crate::load::Compiled;
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
    /// For a rules variant checked alone: its base, simulated beside it
    /// (its columns come first in the table).
    pub base: Option<Box<SimSection>>,
    /// The variant's metrics against the base's, column by column.
    pub compare: Vec<super::compare::Delta>,
    /// How often each rule fired, over all the columns.
    pub fires: Vec<super::fires::Fire>,
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
    /// For a rules variant: the file whose table shows its columns.
    pub shown_with: Option<usize>,
    /// The base of the rules variant at this index, simulated beside it
    /// and not reported on its own.
    pub base_of: Option<usize>,
}

/// Files checked statically, with what their simulation will play.
pub struct Run {
    pub plan: Plan,
    /// The FILE arguments (rules variants are added from the plan).
    pub paths: Vec<String>,
    pub(super) config: Config,
    pub(super) files: Vec<Prepared>,
}

/// FNV-1a of a rules text: the digest saved games and shard parts carry.
pub(super) fn fnv(text: &str) -> u64 {
    crate::load::digest(text)
}

/// Check one file statically and plan its columns.
fn prepare_one(
    path: &Path,
    config: &Config,
    plan: &Plan,
    source: Option<&str>,
) -> Result<Prepared, String> {
    let name = path.display().to_string();
    let (report, compiled) = read_and_check(path, config);
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
        let g =
            Game::load(path).map_err(|_| format!("{name}: changed while it was being checked"))?;
        columns = plan
            .columns(&g, source)
            .map_err(|e| format!("{name}: {e}"))?;
        game = Some((g, Layout::of(graph)));
    }
    Ok(Prepared {
        path: name,
        digest,
        report,
        compiled,
        game,
        columns,
        shown_with: None,
        base_of: None,
    })
}

/// Check every file statically and plan its columns. Rules files given as
/// `--variant` are checked after the one FILE they are compared with.
pub fn prepare<P: AsRef<Path>>(paths: &[P], config: &Config, plan: &Plan) -> Result<Run, String> {
    let rules: Vec<&super::Variant> = plan.variants.iter().filter(|v| v.rules).collect();
    if !rules.is_empty() && paths.len() != 1 {
        return Err(
            "a rules file given as --variant is compared with one FILE: give only one".into(),
        );
    }
    let lead = (!rules.is_empty()).then_some("base");
    let mut files = Vec::new();
    let mut bases = Vec::new();
    for p in paths {
        let p = p.as_ref();
        // a rules variant checked alone runs with its base beside it
        let base = match (lead, plan.games, plan.variants.is_empty()) {
            (None, 1.., true) => crate::load::read_small_text(p)
                .ok()
                .and_then(|t| crate::load::variant_base(&t))
                .map(|b| p.parent().unwrap_or(Path::new(".")).join(b)),
            _ => None,
        };
        let own = base.as_ref().map(|_| {
            let name = super::Variant::load(&p.display().to_string()).map(|v| v.name());
            name.unwrap_or_else(|_| "variant".into())
        });
        files.push(prepare_one(p, config, plan, own.as_deref().or(lead))?);
        if let Some(b) = base
            && files.last().is_some_and(|f| f.game.is_some())
            && let Ok(mut f) = prepare_one(&b, config, plan, Some("base"))
            && f.game.is_some()
            && f.columns.len() == files[files.len() - 1].columns.len()
        {
            f.base_of = Some(files.len() - 1);
            bases.push(f);
        }
    }
    files.extend(bases);
    for v in rules {
        let mut f = prepare_one(Path::new(&v.path), config, plan, Some(&v.name()))?;
        f.shown_with = Some(0);
        files.push(f);
    }
    Ok(Run {
        plan: plan.clone(),
        paths: paths
            .iter()
            .map(|p| p.as_ref().display().to_string())
            .collect(),
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
    /// threads (all cores when `None`); `tick` after each game. A file
    /// whose games are those of an earlier file (see `Run::same_games`)
    /// takes that file's counts instead of playing them again.
    pub fn simulate(&self, jobs: Option<usize>, tick: &(dyn Fn() + Sync)) -> Vec<Vec<Stats>> {
        let agent = self.plan.agent_kind();
        simulate::with_jobs(jobs, || {
            let mut done: Vec<Vec<Stats>> = Vec::with_capacity(self.files.len());
            for (i, f) in self.files.iter().enumerate() {
                if let Some(j) = (0..i).find(|&j| self.same_games(j, i)) {
                    let range = self.range();
                    for _ in 0..f.columns.len() as u64 * (range.end - range.start) {
                        tick();
                    }
                    let stats = done[j].clone();
                    done.push(stats);
                    continue;
                }
                let Some((game, layout)) = &f.game else {
                    done.push(Vec::new());
                    continue;
                };
                let stats = f
                    .columns
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
                    .collect();
                done.push(stats);
            }
            done
        })
    }

    /// Whether file `b` plays exactly the games of file `a`: both simulated,
    /// the same rules text, and column by column the same seats and
    /// options (labels aside). A variant's base checked beside it is often
    /// also a FILE of the run, or the base of another variant: its games
    /// are played once.
    fn same_games(&self, a: usize, b: usize) -> bool {
        let (fa, fb) = (&self.files[a], &self.files[b]);
        fa.game.is_some()
            && fb.game.is_some()
            && fa.report.unreadable.is_none()
            && fb.report.unreadable.is_none()
            && fa.report.source.text == fb.report.source.text
            && fa.columns.len() == fb.columns.len()
            && fa
                .columns
                .iter()
                .zip(&fb.columns)
                .all(|(x, y)| x.players == y.players && x.options == y.options)
    }

    /// Guided exploration of every simulated file after its random games
    /// (`stats` as from [`Run::simulate`]); see `explore.rs`.
    pub fn explore(&self, stats: &[Vec<Stats>], budget: Budget) -> Vec<Option<Explored>> {
        self.files
            .iter()
            .zip(stats)
            .map(|(f, stats)| {
                let (Some((game, layout)), Some(c)) = (&f.game, &f.compiled) else {
                    return None;
                };
                if budget == Budget::Off || f.base_of.is_some() {
                    return None;
                }
                let graph = c.graph.as_ref()?;
                let cx = Context::new(&f.report.source, &c.hir, graph);
                let agent = self.plan.agent_kind();
                let silenced = |d: &crate::diag::Diagnostic| {
                    f.report.silences(&super::lints::never_fired::LINT, d)
                };
                Some(super::explore_run::file(
                    (&cx, &silenced),
                    game,
                    layout,
                    &f.columns,
                    stats,
                    &self.plan,
                    agent,
                    budget,
                ))
            })
            .collect()
    }

    /// The report: static findings, then for each simulated file its
    /// simulation findings and its stats (`stats` as from [`Run::simulate`]).
    pub fn finish(self, stats: Vec<Vec<Stats>>) -> Report {
        self.finish_explored(stats, Vec::new())
    }

    /// [`Run::finish`] with what [`Run::explore`] reached, file by file.
    pub fn finish_explored(
        self,
        stats: Vec<Vec<Stats>>,
        explored: Vec<Option<Explored>>,
    ) -> Report {
        // first judge every file (a variant with its base's counts) ...
        let judged: Vec<Option<Judged>> = (0..self.files.len())
            .map(|i| self.judge(i, &stats, &explored))
            .collect();
        // ... then build the reports
        let plan = self.plan;
        let n = self.files.len();
        let mut files: Vec<Option<FileReport>> = Vec::with_capacity(n);
        let shown_with: Vec<Option<usize>> = self.files.iter().map(|f| f.shown_with).collect();
        let base_of: Vec<Option<usize>> = self.files.iter().map(|f| f.base_of).collect();
        for ((mut f, stats), judged) in self.files.into_iter().zip(stats).zip(judged) {
            if let Some(j) = judged {
                let command = match (f.shown_with, self.paths.first()) {
                    (Some(_), Some(lead)) => plan.command(lead, &f.columns),
                    _ => plan.command(&f.path, &f.columns),
                };
                f.report.sim = Some(sim_section(&mut f, j, &plan, stats, command));
            }
            files.push(Some(f.report));
        }
        nest(files, &shown_with, &base_of)
    }

    /// The findings, notes, comparison with the base, option names and rule
    /// counts of file `i`, if it was simulated.
    fn judge(
        &self,
        i: usize,
        stats: &[Vec<Stats>],
        explored: &[Option<Explored>],
    ) -> Option<Judged> {
        let f = &self.files[i];
        let (Some((game, layout)), Some(c)) = (&f.game, &f.compiled) else {
            return None;
        };
        let graph = c.graph.as_ref()?;
        let base = self
            .files
            .iter()
            .position(|f| f.base_of == Some(i))
            .and_then(|j| {
                let b = &self.files[j];
                match (&b.game, &b.compiled) {
                    (Some((game, layout)), Some(c)) => Some(verdicts::BaseInput {
                        game,
                        layout,
                        hir: &c.hir,
                        stats: &stats[j],
                    }),
                    _ => None,
                }
            });
        let cx = Context::new(&f.report.source, &c.hir, graph);
        let (found, notes) = verdicts::findings(&Input {
            cx: &cx,
            game,
            layout,
            plan: &self.plan,
            path: &f.path,
            columns: &f.columns,
            stats: &stats[i],
            repro_dir: self.config.repro_dir.as_deref(),
            explored: explored.get(i).and_then(Option::as_ref),
            base: base.as_ref(),
        });
        let compare = base
            .as_ref()
            .map(|b| super::compare::deltas(b.stats, &stats[i], &f.columns))
            .unwrap_or_default();
        let options = game.options().iter().map(|o| o.name.clone()).collect();
        let fires = super::fires::counts(&cx, layout, &stats[i]);
        Some((found, notes, compare, options, fires))
    }
}

/// What [`Run::finish_explored`] judged of one simulated file: its
/// findings, notes, comparison with its base, option names and rule counts.
type Judged = (
    Vec<verdicts::Found>,
    Vec<String>,
    Vec<super::compare::Delta>,
    Vec<String>,
    Vec<super::fires::Fire>,
);

/// A simulated file's findings added to its report (unless it is a base,
/// reported inside its variant), and its simulation section.
fn sim_section(
    f: &mut Prepared,
    (found, notes, compare, option_names, fires): Judged,
    plan: &Plan,
    stats: Vec<Stats>,
    command: String,
) -> SimSection {
    if f.base_of.is_none() {
        for (lint, d, ev) in found {
            f.report.add_with(lint, d, ev);
        }
        f.report.sort();
    }
    SimSection {
        command,
        notes: if f.base_of.is_none() {
            notes
        } else {
            Vec::new()
        },
        plan: plan.clone(),
        option_names,
        columns: std::mem::take(&mut f.columns),
        stats,
        base: None,
        compare,
        fires,
    }
}

/// The reports in order: a variant's base inside the variant's simulation,
/// a rules variant in the table of the file it is compared with.
fn nest(
    mut files: Vec<Option<FileReport>>,
    shown_with: &[Option<usize>],
    base_of: &[Option<usize>],
) -> Report {
    for j in 0..files.len() {
        if let Some(i) = base_of[j]
            && let Some(sim) = files[j].take().and_then(|r| r.sim)
            && let Some(Some(v)) = files.get_mut(i)
            && let Some(vs) = &mut v.sim
        {
            vs.base = Some(Box::new(sim));
        }
    }
    let mut files: Vec<FileReport> = files.into_iter().flatten().collect();
    for i in 0..files.len() {
        if let Some(lead) = shown_with.get(i).copied().flatten()
            && let Some(sim) = files[i].sim.clone()
        {
            files[lead].compared.push(sim);
            files[i].shown_with = Some(files[lead].source.name.clone());
        }
    }
    Report { files }
}

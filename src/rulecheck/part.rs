//! Shards: `rulecheck ... --shard K/N` plays the K-th of N contiguous
//! slices of every column's games and writes a [`Part`] (RON) holding the
//! plan, each file's digest and columns, and the stats of its slice.
//! [`merge`] checks that the parts come from one run and cover every slice
//! exactly once, adds their stats up (the stats are exact counts, so the sum
//! is what one run would have counted) and finishes the report from the
//! rules files on disk, as one run does.
//!
//! A part records everything that decides its games: the plan (games, seed,
//! agent, limits, `--set`, variants, `--vary`, players, shard), the FILE
//! arguments, each file's digest and columns (with their option values) and
//! the grail version that played it. `merge` refuses parts that differ in
//! any of these, naming the first difference.

use super::plan::{Column, Plan};
use super::run::{Run, fnv, prepare};
use super::stats::Stats;
use super::{Config, Report};
use serde::{Deserialize, Serialize};

/// What a part file says it is.
pub const FORMAT: &str = "grail rulecheck part 2";

/// The format before parts recorded the grail version.
const FORMAT_1: &str = "grail rulecheck part 1";

/// The version of grail that writes and merges parts.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One shard's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    pub format: String,
    /// The grail version that played the games (empty in format 1).
    #[serde(default)]
    pub grail: String,
    pub plan: Plan,
    /// The FILE arguments of the run.
    pub paths: Vec<String>,
    /// Every file checked (the FILEs, then rules variants).
    pub files: Vec<PartFile>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartFile {
    pub path: String,
    pub digest: u64,
    pub columns: Vec<Column>,
    pub stats: Vec<Stats>,
}

impl Run {
    /// The part a shard writes, from its stats.
    pub fn part(&self, stats: &[Vec<Stats>]) -> Part {
        Part {
            format: FORMAT.into(),
            grail: VERSION.into(),
            plan: self.plan.clone(),
            paths: self.paths.clone(),
            files: self
                .files
                .iter()
                .zip(stats)
                .map(|(f, s)| PartFile {
                    path: f.path.clone(),
                    digest: f.digest,
                    columns: f.columns.clone(),
                    stats: s.clone(),
                })
                .collect(),
        }
    }
}

impl Part {
    pub fn to_ron(&self) -> String {
        let mut s = ron::ser::to_string(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Read a part file's text; `name` names it in errors.
    pub fn from_ron(name: &str, text: &str) -> Result<Part, String> {
        /// The format line alone, read before the rest.
        #[derive(Deserialize)]
        #[serde(rename = "Part")]
        struct Head {
            format: String,
        }
        let not_part =
            |e: ron::error::SpannedError| format!("{name}: not a rulecheck part file ({e})");
        let head: Head = ron::from_str(text).map_err(not_part)?;
        if head.format == FORMAT_1 {
            return Err(format!(
                "{name}: written by an older rulecheck (`{FORMAT_1}`, which does not record the \
                 grail version); run its shards again with this one (grail {VERSION})"
            ));
        }
        if head.format != FORMAT {
            return Err(format!(
                "{name}: a part file of another version (`{}`; this rulecheck reads `{FORMAT}`)",
                head.format
            ));
        }
        let part: Part = ron::from_str(text).map_err(not_part)?;
        if part.grail != VERSION {
            return Err(format!(
                "{name}: written by grail {}, and this is grail {VERSION}: run its shards again \
                 with this one (games may play differently between versions)",
                shown(&part.grail)
            ));
        }
        Ok(part)
    }
}

/// Combine the parts `(name, part)` of one sharded run into its report.
pub fn merge(parts: &[(String, Part)], config: &Config) -> Result<Report, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("merge needs at least one part file".into());
    };
    let Some(shard) = first.plan.shard else {
        return Err(format!("{first_name}: not written by a --shard run"));
    };
    let mut plan = first.plan.clone();
    plan.shard = None;
    for (name, p) in parts {
        plausible(name, p)?;
    }
    if shard.n as usize > parts.len() {
        // Find the first missing slice without allocating `n` slots.
        let missing = (1..=shard.n)
            .find(|k| {
                !parts
                    .iter()
                    .any(|(_, p)| p.plan.shard.is_some_and(|s| s.k == *k))
            })
            .unwrap_or(shard.n);
        return Err(format!("shard {missing}/{} is missing", shard.n));
    }
    each_slice_once(first_name, first, shard.n, parts)?;
    let run = prepare(&first.paths, config, &plan)?;
    if run.files.len() != first.files.len() {
        return Err("the files to check changed since the shards ran".into());
    }
    let mut stats = Vec::new();
    for (i, f) in run.files.iter().enumerate() {
        stats.push(file_stats(i, f, parts)?);
    }
    Ok(run.finish(stats))
}

/// Every part is a slice of the run of `first`, and each of its `n`
/// slices is given once.
fn each_slice_once(
    first_name: &str,
    first: &Part,
    n: u64,
    parts: &[(String, Part)],
) -> Result<(), String> {
    let mut seen = vec![None; n as usize];
    for (name, p) in parts {
        let Some(s) = p.plan.shard else {
            return Err(format!("{name}: not written by a --shard run"));
        };
        if let Some(why) = difference(first, p) {
            return Err(format!(
                "{first_name} and {name} come from different runs: {why}"
            ));
        }
        if let Some(other) = seen[(s.k - 1) as usize].replace(name.as_str()) {
            return Err(format!(
                "shard {}/{} is given twice: {other} and {name}",
                s.k, s.n
            ));
        }
    }
    if let Some(k) = seen.iter().position(Option::is_none) {
        return Err(format!("shard {}/{n} is missing", k + 1));
    }
    Ok(())
}

/// The stats of file `i` of the run (`f`, prepared again), summed over
/// the parts, once each part is seen to fit it.
fn file_stats(
    i: usize,
    f: &super::run::Prepared,
    parts: &[(String, Part)],
) -> Result<Vec<Stats>, String> {
    let (first_name, first) = (&parts[0].0, &parts[0].1);
    {
        let part_file = &first.files[i];
        let text_digest = if f.report.unreadable.is_some() {
            0
        } else {
            fnv(&f.report.source.text)
        };
        if text_digest != part_file.digest || f.columns != part_file.columns {
            return Err(format!(
                "{}: the rules file changed since the shards ran",
                f.path
            ));
        }
        if let Some((_, layout)) = &f.game
            && part_file
                .stats
                .iter()
                .any(|s| s.nodes.len() != layout.nodes || s.arms.len() != layout.arms)
        {
            return Err(format!(
                "{first_name}: not a plausible part file: its node counts do not fit {}",
                f.path
            ));
        }
        let mut sum: Vec<Stats> = part_file.stats.clone();
        for (name, p) in &parts[1..] {
            let lengths = |s: &Stats| (s.nodes.len(), s.arms.len(), s.wins.len());
            if p.files[i]
                .stats
                .iter()
                .map(lengths)
                .ne(sum.iter().map(lengths))
            {
                return Err(format!(
                    "{name}: not a plausible part file: its node counts do not match {first_name}'s"
                ));
            }
            for (a, b) in sum.iter_mut().zip(&p.files[i].stats) {
                if !a.merge(b) {
                    return Err(format!(
                        "{name}: not a plausible part file: its counts overflow when added to the others'"
                    ));
                }
            }
        }
        // the report adds each count up over the columns
        let total = |pick: fn(&Stats) -> &[u64]| {
            let len = sum.first().map_or(0, |s| pick(s).len());
            (0..len).all(|k| {
                sum.iter()
                    .try_fold(0u64, |a, s| {
                        a.checked_add(pick(s).get(k).copied().unwrap_or(0))
                    })
                    .is_some()
            })
        };
        if !(total(|s| &s.nodes) && total(|s| &s.arms) && total(|s| &s.values)) {
            return Err(format!(
                "{}: not a plausible part file: its counts overflow when its columns are added up",
                f.path
            ));
        }
        Ok(sum)
    }
}

/// The first difference between two parts that makes them two runs, in
/// words (`a` first): `None` when they are slices of one run.
fn difference(a: &Part, b: &Part) -> Option<String> {
    if a.grail != b.grail {
        return Some(format!("grail {} and {}", shown(&a.grail), shown(&b.grail)));
    }
    if let Some(why) = plan_difference(&a.plan, &b.plan) {
        return Some(why);
    }
    if a.paths != b.paths {
        return Some(format!(
            "the files {} and {}",
            list(&a.paths),
            list(&b.paths)
        ));
    }
    if a.files.len() != b.files.len() {
        return Some(format!(
            "{} files checked and {}",
            a.files.len(),
            b.files.len()
        ));
    }
    let Some((fa, fb)) = a
        .files
        .iter()
        .zip(&b.files)
        .find(|(x, y)| x.path != y.path || x.digest != y.digest || x.columns != y.columns)
    else {
        // A setting this list does not name yet.
        let unsharded = |p: &super::Plan| super::Plan {
            shard: None,
            ..p.clone()
        };
        return (unsharded(&a.plan) != unsharded(&b.plan)).then(|| "other settings".into());
    };
    Some(file_difference(fa, fb))
}

/// Names, or `none`.
fn list(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(" ")
    }
}

/// The first setting of the command line that differs, in words.
fn plan_difference(pa: &super::Plan, pb: &super::Plan) -> Option<String> {
    Some(if pa.games != pb.games {
        format!("--games {} and {}", pa.games, pb.games)
    } else if pa.seed != pb.seed {
        format!("--seed {} and {}", pa.seed, pb.seed)
    } else if pa.agent != pb.agent {
        format!("--agent {} and {}", pa.agent, pb.agent)
    } else if pa.max_decisions != pb.max_decisions {
        format!(
            "--max-decisions {} and {}",
            pa.max_decisions, pb.max_decisions
        )
    } else if pa.players != pb.players {
        let p = |v: &Option<Vec<usize>>| {
            v.as_ref().map_or("every count".into(), |v| {
                v.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
            })
        };
        format!("--players {} and {}", p(&pa.players), p(&pb.players))
    } else if pa.sets != pb.sets {
        format!("--set {} and {}", list(&pa.sets), list(&pb.sets))
    } else if pa.variants != pb.variants {
        let v = |p: &super::Plan| {
            let names: Vec<String> = p.variants.iter().map(|v| v.path.clone()).collect();
            list(&names)
        };
        if v(pa) == v(pb) {
            "a variant file's settings changed between the shards".into()
        } else {
            format!("--variant {} and {}", v(pa), v(pb))
        }
    } else if pa.varies != pb.varies {
        let v = |p: &super::Plan| {
            let vs: Vec<String> = p
                .varies
                .iter()
                .map(|v| format!("{}={}", v.option, v.values.join(",")))
                .collect();
            list(&vs)
        };
        format!("--vary {} and {}", v(pa), v(pb))
    } else if pa.shard.map(|s| s.n) != pb.shard.map(|s| s.n) {
        let n = |s: Option<super::Shard>| s.map_or("none".into(), |s| s.n.to_string());
        format!("{} shards and {}", n(pa.shard), n(pb.shard))
    } else {
        return None;
    })
}

/// How two parts' records of one file differ, in words.
fn file_difference(fa: &PartFile, fb: &PartFile) -> String {
    if fa.path != fb.path {
        format!("the files {} and {}", fa.path, fb.path)
    } else if fa.digest != fb.digest {
        format!(
            "{} differs (rules digest {:016x} and {:016x}): it was edited between the shards",
            fa.path, fa.digest, fb.digest
        )
    } else {
        let cols = |f: &PartFile| {
            f.columns
                .iter()
                .map(|c| {
                    let o: Vec<String> = c.options.iter().map(i32::to_string).collect();
                    format!("{} ({})", c.label, o.join(","))
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "{}: columns with their option values {} and {}",
            fa.path,
            cols(fa),
            cols(fb)
        )
    }
}

/// A version as shown in a refusal.
fn shown(version: &str) -> &str {
    if version.is_empty() {
        "(none recorded)"
    } else {
        version
    }
}

/// Refuse a part whose numbers cannot come from a run (a tampered or
/// damaged file), before anything is indexed or added up.
/// Why the hit counts of one column cannot come from a run, if they
/// cannot: a game takes at most `max_decisions` decisions, each chooses at
/// most one option (arm), and between two decisions the rules run at most
/// [`crate::engine::STEP_BUDGET`] steps, so no node runs more often.
fn impossible_hits(st: &Stats, max_decisions: u64) -> Option<String> {
    let choices = st.games.saturating_mul(max_decisions.max(1));
    let arms = st.arms.iter().try_fold(0u64, |a, n| a.checked_add(*n));
    let steps = (st.choices.saturating_add(st.games)).saturating_mul(crate::engine::STEP_BUDGET);
    if st.choices > choices {
        Some(format!(
            "{} decisions in {} games of at most {max_decisions}",
            st.choices, st.games
        ))
    } else if arms.is_none_or(|a| a > st.choices) {
        Some(format!(
            "options chosen more often than the {} decisions",
            st.choices
        ))
    } else if st.values.iter().any(|n| *n > st.choices) {
        Some(format!(
            "values chosen more often than the {} decisions",
            st.choices
        ))
    } else {
        st.nodes.iter().find(|n| **n > steps).map(|n| {
            format!(
                "a node ran {n} times, more than the {} decisions and {} games allow",
                st.choices, st.games
            )
        })
    }
}

fn plausible(name: &str, p: &Part) -> Result<(), String> {
    let bad = |why: String| Err(format!("{name}: not a plausible part file: {why}"));
    if let Some(s) = p.plan.shard
        && (s.k == 0 || s.k > s.n)
    {
        return bad(format!("shard {}/{} does not exist", s.k, s.n));
    }
    for f in &p.files {
        if f.stats.len() != f.columns.len() {
            return bad(format!(
                "{}: {} columns but {} sets of counts",
                f.path,
                f.columns.len(),
                f.stats.len()
            ));
        }
        for (c, st) in f.columns.iter().zip(&f.stats) {
            let sum =
                |h: &super::stats::Histogram| h.0.values().try_fold(0u64, |a, n| a.checked_add(*n));
            let why = if st.games > p.plan.games {
                Some(format!("{} games in a run of {}", st.games, p.plan.games))
            } else if st.finished > st.games {
                Some(format!("{} of {} games finished", st.finished, st.games))
            } else if st
                .ties
                .checked_add(st.no_winner)
                .is_none_or(|n| n > st.finished)
            {
                Some("more ties than finished games".into())
            } else if sum(&st.turns) != Some(st.finished) || sum(&st.decisions) != Some(st.finished)
            {
                Some("the turn or decision counts do not add up to the finished games".into())
            } else if let Some(d) = st.decisions.0.keys().find(|d| **d > p.plan.max_decisions) {
                Some(format!(
                    "a finished game of {d} decisions in a run capped at {}",
                    p.plan.max_decisions
                ))
            } else if st.forced > st.choices || st.choices > st.offered {
                Some(
                    "more forced decisions than decisions, or decisions than actions offered"
                        .into(),
                )
            } else if let Some(why) = impossible_hits(st, p.plan.max_decisions as u64) {
                Some(why)
            } else if st.wins.len() != c.players {
                Some(format!(
                    "wins for {} seats in a {}-player column",
                    st.wins.len(),
                    c.players
                ))
            } else {
                None
            };
            if let Some(why) = why {
                return bad(format!("{}, column {}: {why}", f.path, c.label));
            }
        }
    }
    Ok(())
}

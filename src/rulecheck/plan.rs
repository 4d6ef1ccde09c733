//! What to simulate: the [`Plan`] built from the command line (games,
//! seed, agent, limits, `--set`, `--variant`, `--vary`, `--players`,
//! `--shard`), variant files, and the columns it makes for one game. Every
//! column is one combination of a variant (the base rules first), a value of
//! each `--vary`, and a player count, in that order.
//!
//! A variant is either a file of `OPT=VALUE` lines, or a rules file (a
//! `variant "NAME" extends "BASE"` of the rules language, or any `.rules`
//! file): such a file is a game of its own, checked beside the FILE and
//! shown in the same table (`run.rs` makes its columns).

use crate::agent::AgentKind;
use crate::engine::{Game, SetError};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// A variant file: `OPT=VALUE` lines (`#` comments, blank lines allowed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// The path as given on the command line.
    pub path: String,
    /// Its settings, with their 1-based line numbers.
    pub settings: Vec<(String, String, usize)>,
    /// A rules file rather than a list of settings.
    pub rules: bool,
}

impl Variant {
    /// Parse a variant file's text; `path` names it in errors.
    pub fn parse(path: &str, text: &str) -> Result<Variant, String> {
        let mut settings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let code = line.split('#').next().unwrap_or("").trim();
            if code.is_empty() {
                continue;
            }
            let Ok((name, value)) = crate::engine::split_setting(code) else {
                return Err(format!(
                    "{path}:{}: expected `OPTION=VALUE`, not `{code}`",
                    i + 1
                ));
            };
            if name.is_empty() || value.is_empty() {
                return Err(format!(
                    "{path}:{}: expected `OPTION=VALUE`, not `{code}`",
                    i + 1
                ));
            }
            settings.push((name.to_string(), value.to_string(), i + 1));
        }
        Ok(Variant {
            path: path.to_string(),
            settings,
            rules: false,
        })
    }

    /// Read a variant file: a rules file when it ends in `.rules` or holds a
    /// `variant "NAME" extends "BASE"` line, settings otherwise.
    pub fn load(path: &str) -> Result<Variant, String> {
        let text = crate::load::read_small_text(std::path::Path::new(path))
            .map_err(|e| format!("cannot read variant `{path}`: {e}"))?;
        let extends = text.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("variant ") && l.contains(" extends ")
        });
        if extends || path.ends_with(".rules") {
            return Ok(Variant {
                path: path.to_string(),
                settings: Vec::new(),
                rules: true,
            });
        }
        Variant::parse(path, &text)
    }

    /// The short name of a column: the file name without its extension.
    pub fn name(&self) -> String {
        let file = self.path.rsplit(['/', '\\']).next().unwrap_or(&self.path);
        match file.rsplit_once('.') {
            Some((stem, _)) if !stem.is_empty() => stem.to_string(),
            _ => file.to_string(),
        }
    }
}

/// `--vary OPT=V1,V2,...`: one column per value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vary {
    pub option: String,
    pub values: Vec<String>,
}

impl Vary {
    pub fn parse(arg: &str) -> Result<Vary, String> {
        let bad = || format!("--vary takes OPTION=V1,V2,..., not `{arg}`");
        let (name, values) = crate::engine::split_setting(arg).map_err(|_| bad())?;
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        if name.is_empty() || values.iter().any(String::is_empty) {
            return Err(bad());
        }
        Ok(Vary {
            option: name.to_string(),
            values,
        })
    }
}

/// The most columns one run may have (docs/language.md, "Limits").
pub const MAX_COLUMNS: usize = 1000;

/// `--shard K/N`: the K-th of N slices of the games (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    pub fn parse(arg: &str) -> Result<Shard, String> {
        let bad = || format!("--shard takes K/N with 1 <= K <= N, not `{arg}`");
        let (k, n) = arg.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The games of this slice, out of `games`: a contiguous block.
    pub fn range(self, games: u64) -> std::ops::Range<u64> {
        let at = |k: u64| (games as u128 * k as u128 / self.n as u128) as u64;
        at(self.k - 1)..at(self.k)
    }
}

/// Everything that decides which games are played and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Games per column; 0 runs the static lints only.
    pub games: u64,
    /// Seed of the run: game `i` of every column has engine seed
    /// `grail::sim::game_seed(seed, i)`, as in `grail sim`.
    pub seed: u64,
    pub agent: String,
    /// A game still running after this many decisions does not end.
    pub max_decisions: u32,
    /// Player counts (default: every count, or the fewest when comparing).
    pub players: Option<Vec<usize>>,
    /// `--set OPT=VALUE`, applied to every column first.
    pub sets: Vec<String>,
    pub variants: Vec<Variant>,
    pub varies: Vec<Vary>,
    pub shard: Option<Shard>,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            games: 1000,
            seed: 0,
            agent: "random".into(),
            max_decisions: 10_000,
            players: None,
            sets: Vec::new(),
            variants: Vec::new(),
            varies: Vec::new(),
            shard: None,
        }
    }
}

/// One column of the comparison: its label, seats and option values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    pub label: String,
    pub players: usize,
    pub options: Vec<i32>,
}

impl Column {
    /// `--set name=value` for each option that differs from its default.
    pub fn set_args(&self, game: &Game) -> Vec<String> {
        game.changed_settings(&self.options)
    }
}

impl Plan {
    pub fn agent_kind(&self) -> AgentKind {
        self.agent.parse().unwrap_or(AgentKind::Random)
    }

    /// Whether the run compares variants or option values.
    pub fn compares(&self) -> bool {
        !self.variants.is_empty() || !self.varies.is_empty()
    }

    /// The columns for one game, or a one-line reason it cannot be played.
    /// `source`: the label of the rules file among compared rules files
    /// (`base`, or a rules variant's name), if there are several.
    pub fn columns(&self, game: &Game, source: Option<&str>) -> Result<Vec<Column>, String> {
        let settings: Vec<&Variant> = self.variants.iter().filter(|v| !v.rules).collect();
        let (lo, hi) = game.players();
        let counts: Vec<usize> = match &self.players {
            Some(list) => list.clone(),
            None if self.compares() => vec![lo],
            None => (lo..=hi).collect(),
        };
        for &n in &counts {
            game.check_players(n)?;
        }
        let base = game.options_from(&self.sets).map_err(|e| match e {
            SetError::Option { setting, error } => format!("--set {setting}: {error}"),
            e => e.to_string(),
        })?;
        // (label parts, options) for each variant, then each vary value.
        let mut rows: Vec<(Vec<String>, Vec<i32>)> = Vec::new();
        let first: Vec<String> = source.iter().map(|s| s.to_string()).collect();
        if settings.is_empty() {
            rows.push((first.clone(), base.clone()));
        } else {
            let base_label = if first.is_empty() {
                vec!["base".into()]
            } else {
                first.clone()
            };
            rows.push((base_label, base.clone()));
            for v in settings {
                let mut opts = base.clone();
                for (name, value, line) in &v.settings {
                    game.set_option(&mut opts, name, value)
                        .map_err(|e| format!("{}:{line}: {e}", v.path))?;
                }
                let mut label = first.clone();
                label.push(v.name());
                rows.push((label, opts));
            }
        }
        // Columns multiply: refuse before building them all.
        let total = self.varies.iter().fold(
            (rows.len() as u64).saturating_mul(counts.len() as u64),
            |n, v| n.saturating_mul(v.values.len() as u64),
        );
        if total > MAX_COLUMNS as u64 {
            return Err(format!(
                "this run would have {total} columns (variants x --vary values x player counts); \
                 at most {MAX_COLUMNS} are allowed: vary fewer options at once"
            ));
        }
        for vary in &self.varies {
            let mut next = Vec::new();
            for (label, opts) in &rows {
                for value in &vary.values {
                    let mut o = opts.clone();
                    game.set_option(&mut o, &vary.option, value)
                        .map_err(|e| format!("--vary {}: {e}", vary.option))?;
                    let mut l = label.clone();
                    l.push(format!("{}={value}", vary.option));
                    next.push((l, o));
                }
            }
            rows = next;
        }
        let mut out = Vec::new();
        for (label, opts) in rows {
            for &n in &counts {
                let mut l = label.clone();
                if counts.len() > 1 || l.is_empty() {
                    l.push(format!("{n}p"));
                }
                out.push(Column {
                    label: l.join(" "),
                    players: n,
                    options: opts.clone(),
                });
            }
        }
        Ok(out)
    }

    /// The rulecheck command line that runs this plan on `file` again.
    pub fn command(&self, file: &str, columns: &[Column]) -> String {
        let mut s = format!(
            "rulecheck {} --games {} --seed {}",
            shell_word(file),
            self.games,
            self.seed
        );
        let mut counts: Vec<usize> = columns.iter().map(|c| c.players).collect();
        counts.dedup();
        counts.sort_unstable();
        counts.dedup();
        let list: Vec<String> = counts.iter().map(usize::to_string).collect();
        let _ = write!(s, " --players {}", list.join(","));
        if self.agent != "random" {
            let _ = write!(s, " --agent {}", self.agent);
        }
        if self.max_decisions != Plan::default().max_decisions {
            let _ = write!(s, " --max-decisions {}", self.max_decisions);
        }
        for set in &self.sets {
            let _ = write!(s, " --set {}", shell_word(set));
        }
        for v in &self.variants {
            let _ = write!(s, " --variant {}", shell_word(&v.path));
        }
        for v in &self.varies {
            let _ = write!(
                s,
                " --vary {}",
                shell_word(&format!("{}={}", v.option, v.values.join(",")))
            );
        }
        s
    }
}

/// A word as a POSIX shell reads it: quoted only when it needs to be.
pub fn shell_word(w: &str) -> String {
    let plain = !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=,:+@%".contains(&b));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_files() {
        let v = Variant::parse(
            "v/house.variant",
            "# house rules\n\ntarget = 50  # short\nfirst=0\n",
        )
        .expect("parses");
        assert_eq!(v.name(), "house");
        assert_eq!(
            v.settings,
            vec![
                ("target".into(), "50".into(), 3),
                ("first".into(), "0".into(), 4)
            ]
        );
        let e = Variant::parse("x.variant", "target 50").expect_err("no =");
        assert!(e.starts_with("x.variant:1: expected"), "{e}");
    }

    #[test]
    fn shards_cover_every_game_once() {
        for n in 1..7 {
            let mut next = 0;
            for k in 1..=n {
                let r = Shard { k, n }.range(10);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, 10);
        }
        assert!(Shard::parse("0/2").is_err() && Shard::parse("3/2").is_err());
        assert_eq!(Shard::parse("2/3"), Ok(Shard { k: 2, n: 3 }));
    }

    #[test]
    fn shell_words() {
        assert_eq!(shell_word("rules/a.rules"), "rules/a.rules");
        assert_eq!(shell_word("my file's"), "'my file'\\''s'");
    }
}

//! `--explore BUDGET`: how long guided exploration (`explore.rs`) searches
//! a file, parsed from the command line and shown in reports, and how a
//! game budget is stretched while the search still reaches new code.

use std::time::Duration;

/// `--explore`: how long to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Off,
    /// This many games per file.
    Games(u64),
    /// This long per file.
    Time(Duration),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::Time(Duration::from_secs(10))
    }
}

/// The longest time `--explore` searches a file: a day.
pub const MAX_SECS: u64 = 86_400;

impl Budget {
    /// `10s`, `1.5s`, `500ms` (time), `2000` (games), `0` (off).
    pub fn parse(arg: &str) -> Result<Budget, String> {
        let bad = || {
            format!(
                "--explore takes a time (10s, 500ms), a number of games (2000) or 0, not `{arg}`"
            )
        };
        let t = arg.trim();
        let secs = if let Some(ms) = t.strip_suffix("ms") {
            Some(ms.trim().parse::<f64>().map_err(|_| bad())? / 1000.0)
        } else if let Some(s) = t.strip_suffix('s') {
            Some(s.trim().parse::<f64>().map_err(|_| bad())?)
        } else {
            None
        };
        match secs {
            Some(s) if !s.is_finite() || s < 0.0 => Err(bad()),
            Some(0.0) => Ok(Budget::Off),
            Some(s) if s > MAX_SECS as f64 => Err(format!(
                "--explore takes a time of at most {MAX_SECS}s (a day), not `{arg}`"
            )),
            Some(s) => Ok(Budget::Time(Duration::from_secs_f64(s))),
            None => match t.parse::<u64>().map_err(|_| bad())? {
                0 => Ok(Budget::Off),
                n => Ok(Budget::Games(n)),
            },
        }
    }
}

impl Budget {
    /// Whether the budget as given (not stretched) is used up after
    /// `games` games in `elapsed`.
    pub fn spent(self, games: u64, elapsed: Duration) -> bool {
        match self {
            Budget::Off => true,
            Budget::Games(n) => games >= n,
            Budget::Time(d) => elapsed >= d,
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Budget::Off => write!(f, "0"),
            Budget::Games(n) => write!(f, "{n}"),
            Budget::Time(d) => write!(f, "{}s", d.as_secs_f64()),
        }
    }
}

/// Past a game budget, the search plays on while the last game that grew
/// the corpus is fewer than this many games back...
pub const PATIENCE: u64 = 128;
/// ...up to this many times the budget.
pub const STRETCH: u64 = 4;

/// The games a budget of `n` games allows when the last game that grew the
/// corpus was game `last_new - 1` (0: none did): `n`, stretched to
/// [`PATIENCE`] games past it, at most [`STRETCH`] times `n`.
pub fn stretched(n: u64, last_new: u64) -> u64 {
    if last_new == 0 {
        return n;
    }
    n.max(last_new.saturating_add(PATIENCE))
        .min(n.saturating_mul(STRETCH))
}

#[cfg(test)]
mod tests {
    use super::{Budget, PATIENCE, STRETCH, stretched};
    use std::time::Duration;

    #[test]
    fn a_budget_is_spent_at_its_games_or_its_time() {
        let ms = Duration::from_millis;
        assert!(!Budget::Games(320).spent(319, ms(99_999)));
        assert!(Budget::Games(320).spent(320, ms(0)));
        let ten = Budget::Time(Duration::from_secs(10));
        assert!(!ten.spent(1_000_000, ms(9_999)));
        assert!(ten.spent(0, ms(10_000)));
        assert!(Budget::Off.spent(0, ms(0)));
    }

    #[test]
    fn budgets_parse() {
        assert_eq!(Budget::parse("0"), Ok(Budget::Off));
        assert_eq!(Budget::parse("0s"), Ok(Budget::Off));
        assert_eq!(Budget::parse("2000"), Ok(Budget::Games(2000)));
        assert_eq!(
            Budget::parse("10s"),
            Ok(Budget::Time(Duration::from_secs(10)))
        );
        assert_eq!(
            Budget::parse("500ms"),
            Ok(Budget::Time(Duration::from_millis(500)))
        );
        assert!(Budget::parse("-1s").is_err());
        // a day at most, said rather than cut short in silence
        assert_eq!(
            Budget::parse("86400s"),
            Ok(Budget::Time(Duration::from_secs(86_400)))
        );
        assert!(
            Budget::parse("86400001ms")
                .unwrap_err()
                .contains("at most 86400s")
        );
        assert!(Budget::parse("99999999999s").is_err());
        assert!(Budget::parse("ten").is_err());
    }

    #[test]
    fn a_game_budget_stretches_only_while_the_search_reaches_new_code() {
        // nothing new, or the last new reach long before the budget: as given
        assert_eq!(stretched(320, 0), 320);
        assert_eq!(stretched(320, 100), 320);
        // a new reach near the end: PATIENCE games past it
        assert_eq!(stretched(320, 257), 257 + PATIENCE);
        assert_eq!(stretched(320, 700), 700 + PATIENCE);
        // never past STRETCH times the budget
        assert_eq!(stretched(320, 1250), 320 * STRETCH);
        assert_eq!(stretched(u64::MAX, u64::MAX), u64::MAX);
    }
}

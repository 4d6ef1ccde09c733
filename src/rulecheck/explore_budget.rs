//! `--explore BUDGET`: how long guided exploration (`explore.rs`) searches
//! a file, parsed from the command line and shown in reports.

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
            Some(s) => Ok(Budget::Time(Duration::from_secs_f64(s.min(86_400.0)))),
            None => match t.parse::<u64>().map_err(|_| bad())? {
                0 => Ok(Budget::Off),
                n => Ok(Budget::Games(n)),
            },
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

#[cfg(test)]
mod tests {
    use super::Budget;
    use std::time::Duration;

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
        assert!(Budget::parse("ten").is_err());
    }
}

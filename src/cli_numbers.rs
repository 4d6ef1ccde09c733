//! Whole-number arguments of the command-line tools (`--seed`, `--games`,
//! `--jobs`, `--players`...): one parser that names the allowed range. The
//! arguments using it also accept a leading `-` as a value, so `--seed -1`
//! gets "`-1` is negative" instead of clap's advice to write `-- -1`.

use std::fmt::Display;
use std::str::FromStr;

/// An unsigned type a command-line count may have.
pub trait Whole: Copy + FromStr + Display + Send + Sync + 'static {
    /// The largest value, named in the error.
    const MAX: Self;
}

impl Whole for u16 {
    const MAX: Self = u16::MAX;
}
impl Whole for u32 {
    const MAX: Self = u32::MAX;
}
impl Whole for u64 {
    const MAX: Self = u64::MAX;
}
impl Whole for usize {
    const MAX: Self = usize::MAX;
}

/// Parse a whole number from 0 to `T::MAX`, or say what was wrong.
pub fn whole<T: Whole>(s: &str) -> Result<T, String> {
    s.parse::<T>().map_err(|_| {
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if s.strip_prefix('-').is_some_and(digits) {
            format!("it is negative: give a whole number from 0 to {}", T::MAX)
        } else if digits(s) {
            format!("it is too large: give a whole number from 0 to {}", T::MAX)
        } else {
            format!("give a whole number from 0 to {}", T::MAX)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::whole;

    #[test]
    fn names_the_range() {
        assert_eq!(whole::<u64>("7"), Ok(7));
        assert_eq!(whole::<u16>("65535"), Ok(65535));
        assert_eq!(
            whole::<u16>("65536"),
            Err("it is too large: give a whole number from 0 to 65535".to_string())
        );
        assert_eq!(
            whole::<u64>("-1"),
            Err("it is negative: give a whole number from 0 to 18446744073709551615".to_string())
        );
        assert_eq!(
            whole::<u32>("ten"),
            Err("give a whole number from 0 to 4294967295".to_string())
        );
    }
}

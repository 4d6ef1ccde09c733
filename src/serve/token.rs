//! Secret tokens for the links of `grail serve`: 128 random bits from the
//! operating system's generator (through `rand`'s thread generator, a
//! ChaCha stream seeded from the OS), written in hex, and compared in time
//! that does not depend on where two tokens first differ.

use rand::Rng;

/// A fresh token: 32 hex digits.
pub fn fresh() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

/// Whether `given` is `secret`, without an early exit on the first
/// difference (so timing does not reveal a token's prefix).
pub fn same(secret: &str, given: &str) -> bool {
    let (a, b) = (secret.as_bytes(), given.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_long_distinct_and_compared_whole() {
        let (a, b) = (super::fresh(), super::fresh());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(super::same(&a, &a.clone()));
        assert!(!super::same(&a, &b));
        assert!(!super::same(&a, &a[..31]));
        assert!(!super::same(&a, ""));
    }
}

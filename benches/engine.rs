//! Benchmarks (placeholder until the simulator lands).
fn main() {}

//! Batch simulation (placeholder until the simulator lands).

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SimArgs {
    pub file: PathBuf,
}

pub fn run(_args: SimArgs) -> u8 {
    eprintln!("not yet");
    1
}

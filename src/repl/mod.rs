//! The REPL (placeholder until the REPL lands).

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    pub file: PathBuf,
}

pub fn run(_args: PlayArgs) -> u8 {
    eprintln!("not yet");
    1
}

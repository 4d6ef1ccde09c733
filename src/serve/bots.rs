//! The bot driver of a table: while the seat to choose is played by an
//! agent, wait the visible delay, let the agent choose on a blocking thread
//! (searches take time) and play its move, then look again. One driver runs
//! per table at a time; anything that may let a bot move calls [`kick`].

use super::table::{BotStep, Table};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Start the driver of `table` unless it is running.
pub fn kick(table: Arc<Table>, delay: Duration) {
    if table.driving.swap(true, Ordering::AcqRel) {
        return;
    }
    tokio::spawn(async move {
        let mut failed = false;
        while table.bot_due() {
            tokio::time::sleep(delay).await;
            let t = table.clone();
            match tokio::task::spawn_blocking(move || t.bot_step()).await {
                Ok(BotStep::Moved | BotStep::Raced) => {}
                _ => {
                    failed = true;
                    break;
                }
            }
        }
        table.driving.store(false, Ordering::Release);
        // a change that came while the driver was stopping
        if !failed && table.bot_due() {
            kick(table, delay);
        }
    });
}

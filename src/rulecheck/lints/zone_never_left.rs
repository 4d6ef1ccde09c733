//! `zone-never-left`: a zone that cards enter but never leave, and that
//! nothing reads, fed from a draw pile that the rules refill: every card
//! that goes there is lost to the draw pile for good, so it runs dry
//! sooner than the designer planned (the flow is `zones.rs`).

use super::{Context, Level, Lint, Pass};
use crate::diag::Diagnostic;
use crate::rulecheck::zones;

pub static LINT: Lint = Lint {
    name: "zone-never-left",
    level: Level::Warning,
    description: "a zone that cards enter but never leave and nothing reads, drained from a draw pile the rules refill",
    help: "move the cards on from there (to the pile the draw pile is refilled from), or read the zone if it is kept on purpose (a score pile)",
    pass: Pass::Static(run),
};

fn run(cx: &Context, out: &mut Vec<Diagnostic>) {
    let f = zones::flow(cx.hir);
    if f.uncertain {
        return;
    }
    let names = &cx.hir.tables.zones;
    for (s, entered) in f.entered.iter().enumerate() {
        let Some(span) = *entered else { continue };
        if f.left[s] || f.read[s] {
            continue;
        }
        let s = s as u16;
        // a pile that is drawn from and refilled by a rule, whose cards can end here
        let pile = (0..names.len() as u16)
            .find(|&d| d != s && f.drawn[d as usize] && f.refilled(d) && f.reaches(d, s));
        let Some(d) = pile else { continue };
        let zone = &names[s as usize].name;
        let draw = &names[d as usize].name;
        out.push(
            LINT.at(
                span,
                format!(
                    "cards moved into `{zone}` never leave it and nothing reads it: the draw pile `{draw}` loses them for good"
                ),
                format!("cards enter `{zone}` here, and no rule takes them out"),
            )
            .label(
                cx.hir.usage.zone_spans[s as usize],
                format!("`{draw}` is refilled by the rules, but never from here"),
            ),
        );
    }
}

//! `rulecheck --html FILE`: the report as one self-contained HTML page
//! (no script, no link, no font: the charts are inline SVG from
//! `charts.rs`): for each file its verdict, the findings with their code
//! as the text report shows them, the design-metrics table, and the charts
//! (game length per column, win share per seat with intervals, a variant
//! against its base).

use super::Report;
use super::charts;
use std::fmt::Write;

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:70em}\
pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font-size:13px}\
.charts{display:flex;flex-wrap:wrap;gap:1em}.charts figure{margin:0}\
figcaption{font-size:13px;color:#444}.sound{color:#276}.warnings{color:#a60}.unsound{color:#b22}";

impl Report {
    /// The whole report as one HTML page.
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rulecheck report</title><style>{STYLE}</style></head><body>\n<h1>rulecheck: <span class=\"{}\">{}</span></h1>\n",
            self.verdict().key(),
            escape(&self.summary(None))
        );
        for f in &self.files {
            let _ = writeln!(
                out,
                "<section><h2>{}</h2><p class=\"{}\">{}</p>",
                escape(&f.source.name),
                f.verdict().key(),
                escape(&f.summary())
            );
            let text = f.render(false);
            let _ = writeln!(
                out,
                "<h3>Findings and metrics</h3><pre>{}</pre>",
                escape(&text)
            );
            if let Some(sim) = &f.sim
                && f.shown_with.is_none()
            {
                let mut all = vec![];
                if let Some(b) = &sim.base {
                    all.push(b.as_ref());
                }
                all.push(sim);
                all.extend(&f.compared);
                out.push_str("<h3>Charts</h3><div class=\"charts\">\n");
                for c in charts::of_simulation(&all) {
                    match c {
                        Ok(c) => {
                            let _ = writeln!(
                                out,
                                "<figure>{}<figcaption>{}</figcaption></figure>",
                                c.svg,
                                escape(&c.title)
                            );
                        }
                        Err(e) => {
                            let _ = writeln!(out, "<p>{}</p>", escape(&e));
                        }
                    }
                }
                out.push_str("</div>\n");
            }
            out.push_str("</section>\n");
        }
        out.push_str("</body></html>\n");
        out
    }
}

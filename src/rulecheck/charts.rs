//! The charts of `--html`, drawn as SVG with plotters (its SVG backend
//! writes text as `<text>` elements, so no font file is read or bundled):
//! a game-length histogram per column, the win share of each seat with its
//! 95% interval and the fair share, and a variant's moves against its base
//! (each fraction metric's difference with its interval). [`charts`] lists
//! every chart of a report, so a test can render each one.

use super::Report;
use super::compare::Delta;
use super::run::SimSection;
use super::stats::{Histogram, Stats};
use plotters::prelude::*;

/// One chart: its title and its SVG text.
pub struct Chart {
    pub title: String,
    pub svg: String,
}

const SIZE: (u32, u32) = (420, 220);
const BAR: RGBColor = RGBColor(70, 110, 170);
const MARK: RGBColor = RGBColor(200, 80, 60);

fn err(e: impl std::fmt::Display) -> String {
    format!("cannot draw the chart: {e}")
}

/// A histogram of game lengths in turns, in at most 30 bins.
pub fn histogram(title: &str, h: &Histogram) -> Result<String, String> {
    let bins = h.bins(30);
    let width = bins.get(1).map_or(1, |b| b.0 - bins[0].0).max(1);
    let lo = bins.first().map_or(0, |b| b.0);
    let hi = bins.last().map_or(1, |b| b.0 + width);
    let top = bins.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .caption(title, ("sans-serif", 15))
            .x_label_area_size(28)
            .y_label_area_size(44)
            .build_cartesian_2d(lo..hi, 0u64..top + top / 10 + 1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("turns")
            .y_desc("games")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(
                bins.iter()
                    .map(|(x, k)| Rectangle::new([(*x, 0), (x + width, *k)], BAR.filled())),
            )
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Each seat's win share with its 95% interval, against the fair share.
pub fn win_shares(title: &str, s: &Stats, players: usize) -> Result<String, String> {
    let fair = s.fair_share(players);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .caption(title, ("sans-serif", 15))
            .x_label_area_size(28)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..players as f64, 0f64..1f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("seat")
            .y_desc("win share")
            .x_label_formatter(&|x| format!("P{}", x.floor() as i64))
            .draw()
            .map_err(err)?;
        let seats: Vec<(f64, f64, f64)> = (0..players)
            .map(|p| {
                let (share, half) = s.win_share(p);
                (p as f64, share, half)
            })
            .collect();
        chart
            .draw_series(seats.iter().map(|(x, share, _)| {
                Rectangle::new([(x + 0.2, 0.0), (x + 0.8, *share)], BAR.filled())
            }))
            .map_err(err)?;
        chart
            .draw_series(seats.iter().map(|(x, share, half)| {
                PathElement::new(
                    vec![
                        (x + 0.5, (share - half).max(0.0)),
                        (x + 0.5, (share + half).min(1.0)),
                    ],
                    MARK.stroke_width(2),
                )
            }))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, fair), (players as f64, fair)],
                BLACK.stroke_width(1),
            )))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A variant's fraction metrics against its base: each difference (in
/// points) with its 95% interval, moved ones in the marking colour.
pub fn deltas(title: &str, d: &[&Delta]) -> Result<String, String> {
    let span = d
        .iter()
        .map(|x| (x.diff.abs() + x.half) * 100.0)
        .fold(1.0f64, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, 60 + 26 * d.len() as u32))
            .into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .caption(title, ("sans-serif", 15))
            .x_label_area_size(28)
            .y_label_area_size(150)
            .build_cartesian_2d(-span..span, 0f64..d.len() as f64)
            .map_err(err)?;
        let names: Vec<String> = d.iter().map(|x| x.metric.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc("variant - base (points)")
            .y_labels(d.len().max(1))
            .y_label_formatter(&|y| names.get(y.floor() as usize).cloned().unwrap_or_default())
            .draw()
            .map_err(err)?;
        chart
            .draw_series(d.iter().enumerate().map(|(i, x)| {
                let y = i as f64 + 0.5;
                let colour = if x.significant { MARK } else { BAR };
                PathElement::new(
                    vec![
                        ((x.diff - x.half) * 100.0, y),
                        ((x.diff + x.half) * 100.0, y),
                    ],
                    colour.stroke_width(3),
                )
            }))
            .map_err(err)?;
        chart
            .draw_series(d.iter().enumerate().map(|(i, x)| {
                let colour = if x.significant { MARK } else { BAR };
                Circle::new((x.diff * 100.0, i as f64 + 0.5), 4, colour.filled())
            }))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 0.0), (0.0, d.len() as f64)],
                BLACK.stroke_width(1),
            )))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Every chart of one file's simulation (its base's columns first).
pub fn of_simulation(sims: &[&SimSection]) -> Vec<Result<Chart, String>> {
    let mut out = Vec::new();
    for sim in sims {
        for (c, s) in sim.columns.iter().zip(&sim.stats) {
            if s.finished == 0 {
                continue;
            }
            let title = format!("{}: game length", c.label);
            out.push(histogram(&title, &s.turns).map(|svg| Chart { title, svg }));
            let title = format!("{}: win share per seat", c.label);
            out.push(win_shares(&title, s, c.players).map(|svg| Chart { title, svg }));
        }
        let mut columns: Vec<&str> = sim.compare.iter().map(|d| d.column.as_str()).collect();
        columns.dedup();
        for col in columns {
            let d: Vec<&Delta> = sim
                .compare
                .iter()
                .filter(|d| d.column == col && d.fraction)
                .collect();
            if d.is_empty() {
                continue;
            }
            let title = format!("{col} against the base");
            out.push(deltas(&title, &d).map(|svg| Chart { title, svg }));
        }
    }
    out
}

/// Every chart of a report, file by file.
pub fn charts(report: &Report) -> Vec<Result<Chart, String>> {
    let mut out = Vec::new();
    for f in &report.files {
        if let Some(sim) = &f.sim
            && f.shown_with.is_none()
        {
            let mut all: Vec<&SimSection> = sim.base.iter().map(|b| b.as_ref()).collect();
            all.push(sim);
            all.extend(&f.compared);
            out.extend(of_simulation(&all));
        }
    }
    out
}

//! The bench's SVG plot (plotters, SVG backend only): time per execute of each library per
//! problem (log scale) above, fftx's speed-up over each other library below.

use crate::bench::{human, Report};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

const COLORS: [RGBColor; 3] = [
    RGBColor(0x1f, 0x77, 0xb4), // fftx
    RGBColor(0xff, 0x7f, 0x0e), // FFTW
    RGBColor(0x2c, 0xa0, 0x2c), // cuFFTW
];

type DrawResult = Result<(), Box<dyn std::error::Error>>;

pub fn svg(r: &Report, path: &str) -> Result<(), String> {
    draw(r, path).map_err(|e| e.to_string())
}

/// Writes the plot of `r` to the SVG file `path`.
fn draw(r: &Report, path: &str) -> DrawResult {
    let n = r.rows.len().max(1);
    let width = (140 + 110 * n as u32).max(720);
    let root = SVGBackend::new(path, (width, 720)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(&format!("fftx bench: {}", r.title), ("sans-serif", 16))?;
    let (top, bottom) = root.split_vertically(400);
    draw_times(r, n, &top)?;
    draw_speedups(r, n, &bottom)?;
    root.present()?;
    Ok(())
}

/// A part of the picture.
type Area<'b> = DrawingArea<SVGBackend<'b>, Shift>;
/// A chart over the problems (x) and a linear or log-scale y axis.
type Chart<'a, 'b, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, Y>>;
/// What `label` makes: text placed at a data point.
type Label<'b> = <EmptyElement<(f64, f64), SVGBackend<'b>> as std::ops::Add<
    Text<'static, (i32, i32), String>,
>>::Output;

/// The upper chart: each library's time per execute on each of the `n` problems (log scale).
fn draw_times(r: &Report, n: usize, area: &Area) -> DrawResult {
    let (lo, hi) = time_range(r);
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .caption(
            "time per execute (median, microseconds)",
            ("sans-serif", 14),
        )
        .build_cartesian_2d(0f64..n as f64, (lo..hi).log_scale())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("us")
        .draw()?;
    let bar = 0.8 / r.libraries.len() as f64;
    for (j, name) in r.libraries.iter().enumerate() {
        let color = COLORS[j % COLORS.len()];
        let bars: Vec<Rectangle<(f64, f64)>> = r
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, row)| {
                let t = row.results.get(j)?.as_ref().ok()?;
                let x0 = i as f64 + 0.1 + j as f64 * bar;
                Some(Rectangle::new(
                    [(x0, lo), (x0 + bar * 0.9, t.seconds * 1e6)],
                    color.filled(),
                ))
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(name.as_str())
            .legend(swatch(color));
    }
    // Problem names under the axis, and each fftx time above its bar.
    for (i, row) in r.rows.iter().enumerate() {
        problem_name(&mut chart, i, &row.problem, lo)?;
        if let Some(Ok(t)) = row.results.first() {
            chart.draw_series(std::iter::once(label(
                (i as f64 + 0.1, t.seconds * 1e6),
                human(t.seconds),
                -13,
                10,
                COLORS[0],
            )))?;
        }
    }
    legend(&mut chart)
}

/// The time axis's range in microseconds: a factor of two beyond the shortest and longest.
fn time_range(r: &Report) -> (f64, f64) {
    let times: Vec<f64> = r
        .rows
        .iter()
        .flat_map(|row| row.results.iter().filter_map(|t| t.as_ref().ok()))
        .map(|t| t.seconds * 1e6)
        .filter(|t| *t > 0.0)
        .collect();
    let lo = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = times.iter().cloned().fold(0.0, f64::max);
    if times.is_empty() {
        (0.1, 10.0)
    } else {
        (lo / 2.0, hi * 2.0)
    }
}

/// The lower chart: fftx's speed-up over each other library (their time over fftx's) on each
/// of the `n` problems.
fn draw_speedups(r: &Report, n: usize, area: &Area) -> DrawResult {
    let libs = r.libraries.len();
    let speedups = speedups(r);
    let top_s = speedups
        .iter()
        .flatten()
        .flatten()
        .cloned()
        .fold(1.0f64, f64::max)
        * 1.25;
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .caption(
            "speed-up of fftx (other library's time / fftx's; above 1: fftx is faster)",
            ("sans-serif", 14),
        )
        .build_cartesian_2d(0f64..n as f64, 0f64..top_s)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("x")
        .draw()?;
    let bar = 0.8 / (libs.max(2) - 1) as f64;
    for j in 1..libs {
        // Where each problem's bar against library `j` stands, and its height.
        let at = |(i, s): (usize, &Vec<Option<f64>>)| {
            let v = s[j - 1]?;
            Some((i as f64 + 0.1 + (j - 1) as f64 * bar, v))
        };
        let color = COLORS[j % COLORS.len()];
        let bars: Vec<Rectangle<(f64, f64)>> = speedups
            .iter()
            .enumerate()
            .filter_map(at)
            .map(|(x0, v)| Rectangle::new([(x0, 0.0), (x0 + bar * 0.9, v)], color.filled()))
            .collect();
        chart
            .draw_series(bars)?
            .label(format!("vs {}", r.libraries[j]))
            .legend(swatch(color));
        let labels: Vec<_> = speedups
            .iter()
            .enumerate()
            .filter_map(at)
            .map(|(x0, v)| label((x0, v), format!("{v:.2}x"), -13, 10, BLACK))
            .collect();
        chart.draw_series(labels)?;
    }
    chart.draw_series(LineSeries::new(
        [(0.0, 1.0), (n as f64, 1.0)],
        BLACK.stroke_width(1),
    ))?;
    for (i, row) in r.rows.iter().enumerate() {
        problem_name(&mut chart, i, &row.problem, 0.0)?;
    }
    if libs > 1 {
        legend(&mut chart)?;
    }
    Ok(())
}

/// Each problem's speed-ups of fftx over the other libraries, in their order (None where
/// either has no time).
fn speedups(r: &Report) -> Vec<Vec<Option<f64>>> {
    r.rows
        .iter()
        .map(|row| {
            let ours = row.results.first().and_then(|t| t.as_ref().ok());
            (1..r.libraries.len())
                .map(|j| {
                    let theirs = row.results.get(j)?.as_ref().ok()?;
                    Some(theirs.seconds / ours?.seconds)
                })
                .collect()
        })
        .collect()
}

/// Text at a data point, moved by `dy` pixels (below the point when positive).
fn label<'b>(at: (f64, f64), text: String, dy: i32, size: u32, color: RGBColor) -> Label<'b> {
    EmptyElement::at(at)
        + Text::new(
            text,
            (0, dy),
            ("sans-serif", size).into_font().color(&color),
        )
}

/// Draws problem `i`'s name under the x axis, which is at height `y`.
fn problem_name<Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'_, '_, Y>,
    i: usize,
    name: &str,
    y: f64,
) -> DrawResult {
    chart.draw_series(std::iter::once(label(
        (i as f64 + 0.1, y),
        name.to_string(),
        6,
        13,
        BLACK,
    )))?;
    Ok(())
}

/// A legend entry's coloured square.
fn swatch(color: RGBColor) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
}

/// Draws the chart's legend, at its upper left.
fn legend<'a, 'b: 'a, Y: Ranged<ValueType = f64>>(chart: &mut Chart<'a, 'b, Y>) -> DrawResult {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}

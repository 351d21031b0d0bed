//! The bench's SVG plot (plotters, SVG backend only): time per execute of each library per
//! problem (log scale) above, fftx's speed-up over each other library below.

use crate::bench::{human, Report};
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

fn draw(r: &Report, path: &str) -> DrawResult {
    // Text at a data point, moved by `dy` pixels (below the point when positive).
    let label = |at: (f64, f64), text: String, dy: i32, size: u32, color: RGBColor| {
        EmptyElement::at(at)
            + Text::new(
                text,
                (0, dy),
                ("sans-serif", size).into_font().color(&color),
            )
    };
    let n = r.rows.len().max(1);
    let libs = r.libraries.len();
    let width = (140 + 110 * n as u32).max(720);
    let root = SVGBackend::new(path, (width, 720)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(&format!("fftx bench: {}", r.title), ("sans-serif", 16))?;
    let (top, bottom) = root.split_vertically(400);

    // Times, log scale.
    let times: Vec<f64> = r
        .rows
        .iter()
        .flat_map(|row| row.results.iter().filter_map(|t| t.as_ref().ok()))
        .map(|t| t.seconds * 1e6)
        .filter(|t| *t > 0.0)
        .collect();
    let lo = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = times.iter().cloned().fold(0.0, f64::max);
    let (lo, hi) = if times.is_empty() {
        (0.1, 10.0)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    let mut chart = ChartBuilder::on(&top)
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
    let bar = 0.8 / libs as f64;
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
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    // Problem names under the axis, and each fftx time above its bar.
    for (i, row) in r.rows.iter().enumerate() {
        chart.draw_series(std::iter::once(label(
            (i as f64 + 0.1, lo),
            row.problem.clone(),
            6,
            13,
            BLACK,
        )))?;
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
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;

    // Speed-ups of fftx over each other library (their time over fftx's).
    let speedups: Vec<Vec<Option<f64>>> = r
        .rows
        .iter()
        .map(|row| {
            let ours = row.results.first().and_then(|t| t.as_ref().ok());
            (1..libs)
                .map(|j| {
                    let theirs = row.results.get(j)?.as_ref().ok()?;
                    Some(theirs.seconds / ours?.seconds)
                })
                .collect()
        })
        .collect();
    let top_s = speedups
        .iter()
        .flatten()
        .flatten()
        .cloned()
        .fold(1.0f64, f64::max)
        * 1.25;
    let mut chart = ChartBuilder::on(&bottom)
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
        let color = COLORS[j % COLORS.len()];
        let bars: Vec<Rectangle<(f64, f64)>> = speedups
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let v = s[j - 1]?;
                let x0 = i as f64 + 0.1 + (j - 1) as f64 * bar;
                Some(Rectangle::new(
                    [(x0, 0.0), (x0 + bar * 0.9, v)],
                    color.filled(),
                ))
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(format!("vs {}", r.libraries[j]))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        let labels: Vec<_> = speedups
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let v = s[j - 1]?;
                let x0 = i as f64 + 0.1 + (j - 1) as f64 * bar;
                Some(label((x0, v), format!("{v:.2}x"), -13, 10, BLACK))
            })
            .collect();
        chart.draw_series(labels)?;
    }
    chart.draw_series(LineSeries::new(
        [(0.0, 1.0), (n as f64, 1.0)],
        BLACK.stroke_width(1),
    ))?;
    for (i, row) in r.rows.iter().enumerate() {
        chart.draw_series(std::iter::once(label(
            (i as f64 + 0.1, 0.0),
            row.problem.clone(),
            6,
            13,
            BLACK,
        )))?;
    }
    if libs > 1 {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

//! Charts of benchmark runs (plotters): total time and nodes per position against difficulty,
//! on a log scale, one line per run, as PNG and SVG. The font is embedded (DejaVu Sans Mono,
//! `assets/`), so charts draw the same on a machine without fonts.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::protocol::{BenchRun, DifficultyResult};

static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// Registers the embedded font as plotters' "sans-serif", once per process.
fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .unwrap_or_else(|_| panic!("the embedded font is a valid TrueType font"));
    });
}

/// What a chart shows on its vertical axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Total seconds per difficulty (table set-up included).
    Seconds,
    /// Nodes per solved position.
    NodesPerPosition,
}

impl Metric {
    fn value(self, result: &DifficultyResult) -> f64 {
        match self {
            Metric::Seconds => result.seconds,
            Metric::NodesPerPosition => result.nodes_per_position(),
        }
    }

    fn file_stem(self) -> &'static str {
        match self {
            Metric::Seconds => "time",
            Metric::NodesPerPosition => "nodes",
        }
    }

    fn axis(self) -> &'static str {
        match self {
            Metric::Seconds => "total seconds (log)",
            Metric::NodesPerPosition => "nodes per position (log)",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Metric::Seconds => "Time per difficulty (finished difficulties)",
            Metric::NodesPerPosition => "Nodes per position (finished difficulties)",
        }
    }
}

/// Draws both charts of `runs` into `directory` (`time.png`, `time.svg`, `nodes.png`,
/// `nodes.svg`) and returns the files written.
pub fn draw_charts(runs: &[BenchRun], directory: &Path) -> Result<Vec<PathBuf>, String> {
    register_font();
    let mut written = Vec::new();
    for metric in [Metric::Seconds, Metric::NodesPerPosition] {
        let png = directory.join(format!("{}.png", metric.file_stem()));
        let svg = directory.join(format!("{}.svg", metric.file_stem()));
        draw(
            BitMapBackend::new(&png, (960, 600)).into_drawing_area(),
            runs,
            metric,
        )
        .map_err(|error| format!("{}: {error}", png.display()))?;
        draw(
            SVGBackend::new(&svg, (960, 600)).into_drawing_area(),
            runs,
            metric,
        )
        .map_err(|error| format!("{}: {error}", svg.display()))?;
        written.push(png);
        written.push(svg);
    }
    Ok(written)
}

/// A number for an axis label: 2.5M, 340k, 12, 0.25.
fn short_number(value: f64) -> String {
    let (scaled, suffix) = match value {
        v if v >= 1e9 => (v / 1e9, "G"),
        v if v >= 1e6 => (v / 1e6, "M"),
        v if v >= 1e3 => (v / 1e3, "k"),
        v => (v, ""),
    };
    let digits = format!("{scaled:.3}");
    let digits = digits.trim_end_matches('0').trim_end_matches('.');
    format!("{digits}{suffix}")
}

/// The smallest range of whole decades (powers of ten at both ends) holding `low..high`: a
/// log axis labels its powers of ten and the steps between them, so a range that held no power
/// of ten (all values within one decade, as for one difficulty) would have no label at all.
fn whole_decades(low: f64, high: f64) -> (f64, f64) {
    let bottom = 10f64.powf(low.log10().floor());
    let top = 10f64.powf(high.log10().ceil());
    (bottom, if top > bottom { top } else { bottom * 10.0 })
}

/// The points of one run: (difficulty, value) of its finished difficulties, by difficulty.
fn points(run: &BenchRun, metric: Metric) -> Vec<(u32, f64)> {
    let mut points: Vec<(u32, f64)> = run
        .difficulties
        .iter()
        .filter(|result| result.finished && metric.value(result) > 0.0)
        .map(|result| (result.difficulty, metric.value(result)))
        .collect();
    points.sort_by_key(|&(difficulty, _)| difficulty);
    points
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    runs: &[BenchRun],
    metric: Metric,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let all: Vec<(u32, f64)> = runs.iter().flat_map(|run| points(run, metric)).collect();
    let (low_x, high_x) = all
        .iter()
        .fold((u32::MAX, 0), |(lo, hi), &(d, _)| (lo.min(d), hi.max(d)));
    let (low_x, high_x) = if all.is_empty() {
        (20, 48)
    } else {
        (low_x, high_x)
    };
    let (low_y, high_y) = all
        .iter()
        .fold((f64::MAX, f64::MIN_POSITIVE), |(lo, hi), &(_, v)| {
            (lo.min(v), hi.max(v))
        });
    let (low_y, high_y) = if all.is_empty() {
        (1.0, 10.0)
    } else {
        whole_decades(low_y / 1.2, high_y * 1.2)
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(metric.title(), ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(90)
        .build_cartesian_2d(
            (low_x.saturating_sub(1)..high_x + 1).into_segmented(),
            (low_y..high_y).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("difficulty (stones placed)")
        .y_desc(metric.axis())
        .label_style(("sans-serif", 14))
        .light_line_style(TRANSPARENT)
        .y_label_formatter(&|&value| short_number(value))
        .draw()?;
    for (index, run) in runs.iter().enumerate() {
        let colour = Palette99::pick(index).to_rgba();
        let series: Vec<(SegmentValue<u32>, f64)> = points(run, metric)
            .into_iter()
            .map(|(d, v)| (SegmentValue::CenterOf(d), v))
            .collect();
        chart
            .draw_series(LineSeries::new(series.clone(), colour.stroke_width(2)))?
            .label(run.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(
            series
                .into_iter()
                .map(|point| Circle::new(point, 4, colour.filled())),
        )?;
    }
    if metric == Metric::Seconds {
        let limit = runs
            .iter()
            .map(|run| run.config.time_limit_seconds)
            .fold(0.0, f64::max);
        if limit > low_y && limit < high_y {
            chart
                .draw_series(LineSeries::new(
                    [
                        (SegmentValue::Exact(low_x.saturating_sub(1)), limit),
                        (SegmentValue::Last, limit),
                    ],
                    BLACK.mix(0.4).stroke_width(1),
                ))?
                .label(format!("time limit {limit} s"))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.4)));
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::BenchConfig;
    use score4_engine::Replacement;

    fn run(label: &str, scale: f64) -> BenchRun {
        BenchRun {
            label: label.into(),
            version: "0.1.0".into(),
            config: BenchConfig {
                positions: 10,
                time_limit_seconds: 600.0,
                table_bytes: 1 << 30,
                replacement: Replacement::TwoBig,
                threads: 1,
                leaf_area: score4_engine::LeafArea::Auto,
                best_first: true,
            },
            difficulties: (0..6)
                .map(|i| DifficultyResult {
                    difficulty: 38 - 2 * i,
                    asked: 10,
                    solved: 10,
                    first_player_wins: 7,
                    seconds: scale * 3f64.powi(i as i32),
                    setup_seconds: 0.0,
                    nodes: (1e5 * scale * 3f64.powi(i as i32)) as u64,
                    probes: 10,
                    hits: 2,
                    finished: i < 5,
                    positions: Vec::new(),
                    stopped_at: None,
                })
                .collect(),
        }
    }

    #[test]
    fn charts_are_written_as_png_and_svg() {
        let directory = std::env::temp_dir().join(format!("score4-plot-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let files = draw_charts(&[run("before", 1.0), run("after", 0.25)], &directory).unwrap();
        assert_eq!(files.len(), 4);
        for file in &files {
            let bytes = std::fs::read(file).unwrap();
            assert!(
                bytes.len() > 1000,
                "{} is only {} bytes",
                file.display(),
                bytes.len()
            );
        }
        let svg = std::fs::read_to_string(directory.join("time.svg")).unwrap();
        assert!(svg.contains("before") && svg.contains("after"));
        std::fs::remove_dir_all(&directory).unwrap();
    }

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(short_number(2_500_000.0), "2.5M");
        assert_eq!(short_number(340_000.0), "340k");
        assert_eq!(short_number(12.0), "12");
        assert_eq!(short_number(0.25), "0.25");
    }

    #[test]
    fn a_log_axis_spans_whole_decades() {
        assert_eq!(whole_decades(350.0, 520.0), (100.0, 1000.0));
        assert_eq!(whole_decades(0.8, 2e6), (0.1, 1e7));
        assert_eq!(whole_decades(1000.0, 1000.0), (1000.0, 10000.0));
    }

    #[test]
    fn a_single_difficulty_gets_labels_on_its_log_axis() {
        let directory =
            std::env::temp_dir().join(format!("score4-plot-one-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let mut one = run("one", 1.0);
        one.difficulties.truncate(1);
        one.difficulties[0].seconds = 432.0;
        draw_charts(&[one], &directory).unwrap();
        let svg = std::fs::read_to_string(directory.join("time.svg")).unwrap();
        // Each text element's content, trimmed (the SVG writer puts it on a line of its own).
        let texts: Vec<&str> = svg
            .split("</text>")
            .filter_map(|chunk| chunk.rsplit('>').next().map(str::trim))
            .collect();
        for label in ["100", "200", "500", "1k"] {
            assert!(
                texts.contains(&label),
                "no tick label {label} in the chart of one difficulty: {texts:?}"
            );
        }
        std::fs::remove_dir_all(&directory).unwrap();
    }

    #[test]
    fn unfinished_difficulties_are_left_out() {
        let points = points(&run("r", 1.0), Metric::Seconds);
        assert_eq!(points.len(), 5);
        assert_eq!(points[0].0, 30);
    }
}

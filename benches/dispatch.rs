//! Dispatch cost against the limit (the plain payload struct) and against
//! serde's internally tagged enum, all in one run.
//!
//! `cargo bench --bench dispatch` runs every group, then prints each group's
//! ratios to its `plain` entry, read from the estimates criterion wrote in
//! this run. See PERFORMANCE.md.

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::*;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};

/// One group per scenario; every group starts with its `plain` baseline.
const GROUPS: &[(&str, &[&str])] = &[
    (
        "de_single",
        &[
            "plain",
            "ours_tag_first",
            "ours_tag_last",
            "serde_tag_first",
            "serde_tag_last",
        ],
    ),
    (
        "de_vec1000",
        &[
            "plain",
            "ours_tag_first",
            "ours_tag_last",
            "serde_tag_first",
            "serde_tag_last",
        ],
    ),
    ("ser_single", &["plain", "ours", "serde"]),
    ("ser_vec1000", &["plain", "ours", "serde"]),
    (
        "de_int_tag_single",
        &[
            "plain",
            "ours_str_tag_first",
            "ours_int_tag_first",
            "ours_int_tag_last",
        ],
    ),
    (
        "de_int_tag_vec1000",
        &[
            "plain",
            "ours_str_tag_first",
            "ours_int_tag_first",
            "ours_int_tag_last",
        ],
    ),
];

fn group<'c>(c: &'c mut Criterion, name: &str) -> BenchmarkGroup<'c, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    g
}

fn de_single(c: &mut Criterion, i: &Inputs) {
    let mut g = group(c, "de_single");
    g.bench_function("plain", |b| b.iter(|| de_plain(black_box(&i.single_plain))));
    g.bench_function("ours_tag_first", |b| {
        b.iter(|| de_ours(black_box(&i.single_first)))
    });
    g.bench_function("ours_tag_last", |b| {
        b.iter(|| de_ours(black_box(&i.single_last)))
    });
    g.bench_function("serde_tag_first", |b| {
        b.iter(|| de_serde(black_box(&i.single_first)))
    });
    g.bench_function("serde_tag_last", |b| {
        b.iter(|| de_serde(black_box(&i.single_last)))
    });
    g.finish();
}

fn de_vec(c: &mut Criterion, i: &Inputs) {
    let mut g = group(c, "de_vec1000");
    g.bench_function("plain", |b| {
        b.iter(|| de_vec_plain(black_box(&i.vec_plain), &i.kinds))
    });
    g.bench_function("ours_tag_first", |b| {
        b.iter(|| de_vec_ours(black_box(&i.vec_first)))
    });
    g.bench_function("ours_tag_last", |b| {
        b.iter(|| de_vec_ours(black_box(&i.vec_last)))
    });
    g.bench_function("serde_tag_first", |b| {
        b.iter(|| de_vec_serde(black_box(&i.vec_first)))
    });
    g.bench_function("serde_tag_last", |b| {
        b.iter(|| de_vec_serde(black_box(&i.vec_last)))
    });
    g.finish();
}

fn ser_single(c: &mut Criterion, i: &Inputs) {
    let (ours, serde) = (&i.click_ours, &i.click_serde);
    let mut buf = Vec::with_capacity(4096);
    let mut g = group(c, "ser_single");
    g.bench_function("plain", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&i.click)))
    });
    g.bench_function("ours", |b| b.iter(|| ser_into(&mut buf, black_box(ours))));
    g.bench_function("serde", |b| b.iter(|| ser_into(&mut buf, black_box(serde))));
    g.finish();
}

fn ser_vec(c: &mut Criterion, i: &Inputs) {
    let plain = PlainEvents(&i.events);
    let mut buf = Vec::with_capacity(1 << 20);
    let mut g = group(c, "ser_vec1000");
    g.bench_function("plain", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&plain)))
    });
    g.bench_function("ours", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&i.events)))
    });
    g.bench_function("serde", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&i.serde_events)))
    });
    g.finish();
}

fn int_tag(c: &mut Criterion, i: &Inputs) {
    let mut g = group(c, "de_int_tag_single");
    g.bench_function("plain", |b| b.iter(|| de_plain(black_box(&i.single_plain))));
    g.bench_function("ours_str_tag_first", |b| {
        b.iter(|| de_ours(black_box(&i.single_first)))
    });
    g.bench_function("ours_int_tag_first", |b| {
        b.iter(|| de_int(black_box(&i.single_int_first)))
    });
    g.bench_function("ours_int_tag_last", |b| {
        b.iter(|| de_int(black_box(&i.single_int_last)))
    });
    g.finish();

    let mut g = group(c, "de_int_tag_vec1000");
    g.bench_function("plain", |b| {
        b.iter(|| de_vec_plain(black_box(&i.vec_plain), &i.kinds))
    });
    g.bench_function("ours_str_tag_first", |b| {
        b.iter(|| de_vec_ours(black_box(&i.vec_first)))
    });
    g.bench_function("ours_int_tag_first", |b| {
        b.iter(|| de_vec_int(black_box(&i.vec_int_first)))
    });
    g.bench_function("ours_int_tag_last", |b| {
        b.iter(|| de_vec_int(black_box(&i.vec_int_last)))
    });
    g.finish();
}

fn main() {
    let started = SystemTime::now();
    let inputs = Inputs::new();
    inputs.check();

    let mut c = Criterion::default().configure_from_args();
    de_single(&mut c, &inputs);
    de_vec(&mut c, &inputs);
    ser_single(&mut c, &inputs);
    ser_vec(&mut c, &inputs);
    int_tag(&mut c, &inputs);
    c.final_summary();

    print_ratios(started);
}

// ---------------------------------------------------------------------------
// Ratio table from this run's estimates.

/// Criterion's output directory: `$CRITERION_HOME`, else the nearest
/// `criterion` directory above this executable (`target/criterion`).
fn criterion_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(PathBuf::from(home));
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .map(|a| a.join("criterion"))
        .find(|p| p.is_dir())
}

/// (mean, median) in ns, if the estimate was written by this run.
fn estimate(dir: &Path, group: &str, bench: &str, since: SystemTime) -> Option<(f64, f64)> {
    let path = dir
        .join(group)
        .join(bench)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let point = |k: &str| v.get(k)?.get("point_estimate")?.as_f64();
    Some((point("mean")?, point("median")?))
}

fn print_ratios(since: SystemTime) {
    let Some(dir) = criterion_dir() else {
        println!("(criterion output directory not found; no ratio table)");
        return;
    };
    println!(
        "\nRatios to each group's `plain` (this run; mean and median of criterion's estimates)"
    );
    println!(
        "{:<20} {:<20} {:>12} {:>12} {:>8} {:>8}",
        "group", "bench", "mean", "median", "x mean", "x median"
    );
    for (group, benches) in GROUPS {
        let Some((base_mean, base_median)) = estimate(&dir, group, "plain", since) else {
            continue;
        };
        for bench in *benches {
            if let Some((mean, median)) = estimate(&dir, group, bench, since) {
                println!(
                    "{:<20} {:<20} {:>12} {:>12} {:>8.3} {:>8.3}",
                    group,
                    bench,
                    fmt_ns(mean),
                    fmt_ns(median),
                    mean / base_mean,
                    median / base_median
                );
            }
        }
    }
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.3} us", ns / 1e3)
    } else {
        format!("{:.1} ns", ns)
    }
}

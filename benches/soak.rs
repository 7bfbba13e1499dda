//! Soak: does resident memory stay flat over millions of reads and writes?
//!
//! `cargo bench --bench soak` runs `THREADS` threads, each doing `OPS` reads
//! and writes picked by a deterministic PRNG (splitmix64, one seed per
//! thread): enums (tag first, last, or in between; a fallback), trait
//! objects (`Box<dyn Shape>` from the inventory registry, through
//! `from_str` and through the erased `from_reader`) and a `Profile`, every
//! object's keys in a random order, with strings of random lengths. Every
//! read is checked against the value it was made from, so nothing is
//! optimized away and a wrong answer stops the run.
//!
//! The main thread samples the resident set (`/proc/self/statm`) after the
//! warm-up (the first tenth of the operations) and at every further tenth,
//! prints the series, and exits non-zero if it grew by more than
//! `FLAT_BYTES` after the warm-up. `--ops N` changes the operations per
//! thread (default 1,000,000). Linux only (it reads `/proc`). Not a test:
//! it takes about a minute, and what it measures depends on the allocator.
//! See RELIABILITY.md.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use json_subtypes::{json_subtypes, Profile, Unknown};
use serde::{Deserialize, Serialize};

const THREADS: usize = 2;
const DEFAULT_OPS: u64 = 1_000_000;
/// Growth after the warm-up still called flat: the allocator may keep a
/// few more pages in its free lists, not a megabyte.
const FLAT_BYTES: u64 = 1 << 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Circle {
    r: u32,
    label: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Rect {
    w: u32,
    h: u32,
    #[serde(default)]
    tags: Vec<String>,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Figure {
    #[json_subtypes(name = "circle")]
    Circle(Circle),
    #[json_subtypes(name = 2)]
    Rect(Rect),
    #[json_subtypes(name = "dot")]
    Dot { x: i64, y: i64 },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "type")]
trait Shape: std::fmt::Debug + Send + Sync {
    fn area(&self) -> u64;
}

#[json_subtypes(name = "circle")]
impl Shape for Circle {
    fn area(&self) -> u64 {
        3 * u64::from(self.r) * u64::from(self.r)
    }
}

#[json_subtypes(name = 2)]
impl Shape for Rect {
    fn area(&self) -> u64 {
        u64::from(self.w) * u64::from(self.h)
    }
}

/// splitmix64: small, fast, and the same sequence on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn text(&mut self) -> String {
        let len = self.below(40) as usize;
        (0..len)
            .map(|_| char::from(b'a' + self.below(26) as u8))
            .collect()
    }

    /// `entries` as a JSON object in a random order (Fisher-Yates).
    fn object(&mut self, mut entries: Vec<(&str, String)>) -> String {
        for i in (1..entries.len()).rev() {
            entries.swap(i, self.below(i as u64 + 1) as usize);
        }
        let mut out = String::from("{");
        for (i, (key, value)) in entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write!(out, "\"{key}\":{value}").unwrap();
        }
        out.push('}');
        out
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn circle_entries(tag_key: &str, tag: &str, c: &Circle) -> Vec<(&'static str, String)> {
    let key: &'static str = if tag_key == "type" { "type" } else { "kind" };
    vec![
        (key, tag.to_owned()),
        ("r", c.r.to_string()),
        ("label", quoted(&c.label)),
    ]
}

fn rect_entries(tag_key: &str, tag: &str, r: &Rect) -> Vec<(&'static str, String)> {
    let key: &'static str = if tag_key == "type" { "type" } else { "kind" };
    vec![
        (key, tag.to_owned()),
        ("w", r.w.to_string()),
        ("h", r.h.to_string()),
        ("tags", serde_json::to_string(&r.tags).unwrap()),
    ]
}

fn random_circle(rng: &mut Rng) -> Circle {
    Circle {
        r: rng.below(1000) as u32,
        label: rng.text(),
    }
}

fn random_rect(rng: &mut Rng) -> Rect {
    Rect {
        w: rng.below(1000) as u32,
        h: rng.below(1000) as u32,
        tags: (0..rng.below(4)).map(|_| rng.text()).collect(),
    }
}

fn profile() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Circle>("round")
        .subtype::<Rect>(-4)
        .build()
        .unwrap()
}

/// One operation, picked by `rng`; panics on a wrong answer.
fn step(rng: &mut Rng, profile: &Profile<dyn Shape>) {
    match rng.below(8) {
        // An enum read, keys in any order.
        0 => {
            let (text, expected) = match rng.below(4) {
                0 => {
                    let c = random_circle(rng);
                    let text = rng.object(circle_entries("type", "\"circle\"", &c));
                    (text, Figure::Circle(c))
                }
                1 => {
                    let r = random_rect(rng);
                    let text = rng.object(rect_entries("type", "2", &r));
                    (text, Figure::Rect(r))
                }
                2 => {
                    let (x, y) = (rng.next() as i64, rng.next() as i64);
                    let text = rng.object(vec![
                        ("type", "\"dot\"".into()),
                        ("x", x.to_string()),
                        ("y", y.to_string()),
                    ]);
                    (text, Figure::Dot { x, y })
                }
                _ => {
                    let entries = vec![
                        ("type", quoted(&format!("new-{}", rng.text()))),
                        ("a", quoted(&rng.text())),
                        ("b", format!("[{},{}]", rng.below(9), rng.below(9))),
                    ];
                    let text = rng.object(entries);
                    // The fallback keeps the object as it came.
                    let read: Figure = serde_json::from_str(&text).unwrap();
                    assert!(matches!(read, Figure::Other(_)), "{text}");
                    assert_eq!(serde_json::to_string(&read).unwrap(), text);
                    return;
                }
            };
            let read: Figure = serde_json::from_str(&text).unwrap();
            assert_eq!(read, expected, "{text}");
        }
        // An enum written and read back.
        1 => {
            let value = if rng.below(2) == 0 {
                Figure::Circle(random_circle(rng))
            } else {
                Figure::Rect(random_rect(rng))
            };
            let text = serde_json::to_string(&value).unwrap();
            assert_eq!(serde_json::from_str::<Figure>(&text).unwrap(), value);
        }
        // A trait object read, native and erased.
        2 | 3 => {
            let (text, area) = if rng.below(2) == 0 {
                let c = random_circle(rng);
                (
                    rng.object(circle_entries("type", "\"circle\"", &c)),
                    c.area(),
                )
            } else {
                let r = random_rect(rng);
                (rng.object(rect_entries("type", "2", &r)), r.area())
            };
            let read: Box<dyn Shape> = if rng.below(2) == 0 {
                serde_json::from_str(&text).unwrap()
            } else {
                serde_json::from_reader(text.as_bytes()).unwrap()
            };
            assert_eq!(read.area(), area, "{text}");
        }
        // A trait object written and read back.
        4 => {
            let value: Box<dyn Shape> = Box::new(random_rect(rng));
            let text = serde_json::to_string(&value).unwrap();
            let back: Box<dyn Shape> = serde_json::from_str(&text).unwrap();
            assert_eq!(back.area(), value.area());
        }
        // A profile read.
        5 | 6 => {
            let (text, area) = if rng.below(2) == 0 {
                let c = random_circle(rng);
                (
                    rng.object(circle_entries("kind", "\"round\"", &c)),
                    c.area(),
                )
            } else {
                let r = random_rect(rng);
                (rng.object(rect_entries("kind", "-4", &r)), r.area())
            };
            assert_eq!(profile.from_str(&text).unwrap().area(), area, "{text}");
        }
        // A profile written and read back.
        _ => {
            let c = random_circle(rng);
            let text = profile.to_string(&c).unwrap();
            assert_eq!(profile.from_str(&text).unwrap().area(), c.area());
        }
    }
}

/// Resident set size in bytes, from `/proc/self/statm` (pages).
fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * page_size()
}

/// The page size from the auxiliary vector (`AT_PAGESZ`), which
/// `/proc/self/auxv` lists as (type, value) pairs: no libc call needed.
fn page_size() -> u64 {
    let auxv = std::fs::read("/proc/self/auxv").expect("/proc/self/auxv");
    for pair in auxv.chunks_exact(16) {
        let kind = u64::from_ne_bytes(pair[..8].try_into().unwrap());
        let value = u64::from_ne_bytes(pair[8..].try_into().unwrap());
        if kind == 6 {
            return value;
        }
    }
    4096
}

fn kib(bytes: u64) -> String {
    format!("{} KiB", bytes / 1024)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // `cargo bench` passes `--bench`; only `--ops N` is ours.
    let ops = args
        .iter()
        .position(|a| a == "--ops")
        .map(|i| args[i + 1].parse().expect("--ops N"))
        .unwrap_or(DEFAULT_OPS);
    let total = ops * THREADS as u64;
    let done = Arc::new(AtomicU64::new(0));
    let profile = Arc::new(profile());
    let start = Instant::now();
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let done = done.clone();
            let profile = profile.clone();
            std::thread::spawn(move || {
                let mut rng = Rng(0x5eed + t as u64);
                for _ in 0..ops {
                    step(&mut rng, &profile);
                    done.fetch_add(1, Relaxed);
                }
            })
        })
        .collect();

    println!("soak: {THREADS} threads x {ops} operations");
    println!("{:>10}  {:>10}  {:>12}", "ops", "seconds", "rss");
    let mut samples = Vec::new();
    let mut next = total / 10;
    while next <= total {
        while done.load(Relaxed) < next && !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(2));
        }
        let at = done.load(Relaxed);
        let rss = rss();
        println!(
            "{at:>10}  {:>10.2}  {:>12}",
            start.elapsed().as_secs_f64(),
            kib(rss)
        );
        samples.push(rss);
        next += total / 10;
    }
    for w in workers {
        if w.join().is_err() {
            eprintln!("soak: a worker failed");
            return ExitCode::FAILURE;
        }
    }
    let warm = samples[0];
    let max = *samples.iter().max().unwrap();
    let growth = max.saturating_sub(warm);
    println!(
        "after warm-up: {} -> max {} (+{}), at the end {}; {:.1} s, {:.0} ops/s",
        kib(warm),
        kib(max),
        kib(growth),
        kib(*samples.last().unwrap()),
        start.elapsed().as_secs_f64(),
        total as f64 / start.elapsed().as_secs_f64(),
    );
    if growth > FLAT_BYTES {
        println!("NOT flat: grew by more than {}", kib(FLAT_BYTES));
        ExitCode::FAILURE
    } else {
        println!("flat: within {} of the warm-up sample", kib(FLAT_BYTES));
        ExitCode::SUCCESS
    }
}

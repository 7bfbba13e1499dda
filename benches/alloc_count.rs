//! Allocations per deserialize, per path, with a counting global allocator.
//!
//! `cargo bench --bench alloc_count` prints the table and exits non-zero if
//! our enum with the tag first allocates more than the plain payload struct
//! for the same payload (an invariant of the design, not a timing).
//!
//! `<binary> --run <path> <iterations>` runs one path that many times and
//! nothing else, for instruction counts under valgrind; `--list` names the
//! paths. See PERFORMANCE.md.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use common::*;

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded unchanged to `System`; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        REALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new_size as u64, Relaxed);
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Clone, Copy, PartialEq)]
struct Count {
    allocs: f64,
    reallocs: f64,
    bytes: f64,
}

impl Count {
    fn calls(&self) -> f64 {
        self.allocs + self.reallocs
    }
}

/// Per-call allocator traffic of `f` (the result is dropped outside the count).
fn count<T>(mut f: impl FnMut() -> T) -> Count {
    const RUNS: u64 = 10;
    drop(black_box(f())); // warm: one-time initialisation is not per call
    let mut kept = Vec::with_capacity(RUNS as usize);
    let (a0, r0, b0) = (
        ALLOCS.load(Relaxed),
        REALLOCS.load(Relaxed),
        BYTES.load(Relaxed),
    );
    for _ in 0..RUNS {
        kept.push(black_box(f()));
    }
    let (a1, r1, b1) = (
        ALLOCS.load(Relaxed),
        REALLOCS.load(Relaxed),
        BYTES.load(Relaxed),
    );
    drop(kept);
    let per = |d: u64| d as f64 / RUNS as f64;
    Count {
        allocs: per(a1 - a0),
        reallocs: per(r1 - r0),
        bytes: per(b1 - b0),
    }
}

type Path = (&'static str, &'static str, fn(&Inputs));

/// Every measured operation, by name: (name, description, run once).
fn paths() -> Vec<Path> {
    vec![
        ("plain", "single: plain struct", |i| {
            drop(black_box(de_plain(black_box(&i.single_plain))))
        }),
        ("ours_first", "single: ours, tag first", |i| {
            drop(black_box(de_ours(black_box(&i.single_first))))
        }),
        ("ours_last", "single: ours, tag last", |i| {
            drop(black_box(de_ours(black_box(&i.single_last))))
        }),
        ("serde_first", "single: serde, tag first", |i| {
            drop(black_box(de_serde(black_box(&i.single_first))))
        }),
        ("serde_last", "single: serde, tag last", |i| {
            drop(black_box(de_serde(black_box(&i.single_last))))
        }),
        ("int_first", "single: ours int, tag first", |i| {
            drop(black_box(de_int(black_box(&i.single_int_first))))
        }),
        ("int_last", "single: ours int, tag last", |i| {
            drop(black_box(de_int(black_box(&i.single_int_last))))
        }),
        ("vec_plain", "vec1000: plain structs", |i| {
            drop(black_box(de_vec_plain(black_box(&i.vec_plain), &i.kinds)))
        }),
        ("vec_ours_first", "vec1000: ours, tag first", |i| {
            drop(black_box(de_vec_ours(black_box(&i.vec_first))))
        }),
        ("vec_ours_last", "vec1000: ours, tag last", |i| {
            drop(black_box(de_vec_ours(black_box(&i.vec_last))))
        }),
        ("vec_serde_first", "vec1000: serde, tag first", |i| {
            drop(black_box(de_vec_serde(black_box(&i.vec_first))))
        }),
        ("vec_serde_last", "vec1000: serde, tag last", |i| {
            drop(black_box(de_vec_serde(black_box(&i.vec_last))))
        }),
        ("vec_int_first", "vec1000: ours int, tag first", |i| {
            drop(black_box(de_vec_int(black_box(&i.vec_int_first))))
        }),
        ("vec_int_last", "vec1000: ours int, tag last", |i| {
            drop(black_box(de_vec_int(black_box(&i.vec_int_last))))
        }),
        ("ser_plain", "ser single: plain struct", |i| {
            ser_fresh(&i.click)
        }),
        ("ser_ours", "ser single: ours", |i| ser_fresh(&i.click_ours)),
        ("ser_serde", "ser single: serde", |i| {
            ser_fresh(&i.click_serde)
        }),
        ("ser_vec_plain", "ser vec1000: plain structs", |i| {
            ser_fresh(&PlainEvents(&i.events))
        }),
        ("ser_vec_ours", "ser vec1000: ours", |i| {
            ser_fresh(&i.events)
        }),
        ("ser_vec_serde", "ser vec1000: serde", |i| {
            ser_fresh(&i.serde_events)
        }),
    ]
}

// For `--run` only: serialization into a thread-local reused buffer, so the
// count is the serializer's work and not the output's growth.
fn ser_fresh<T: serde::Serialize + ?Sized>(value: &T) {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(Vec::with_capacity(1 << 20));
    }
    BUF.with(|b| ser_into(&mut b.borrow_mut(), black_box(value)));
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let inputs = Inputs::new();
    inputs.check();

    match args.first().map(String::as_str) {
        Some("--list") => {
            for (name, what, _) in paths() {
                println!("{name:<18} {what}");
            }
            ExitCode::SUCCESS
        }
        Some("--run") => run_one(&inputs, &args[1..]),
        _ => table(&inputs),
    }
}

fn run_one(inputs: &Inputs, args: &[String]) -> ExitCode {
    let (Some(name), Some(n)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: alloc_count --run <path> <iterations>   (--list for paths)");
        return ExitCode::from(2);
    };
    let Some((_, _, f)) = paths().into_iter().find(|(p, _, _)| p == name) else {
        eprintln!("unknown path {name:?}; --list names them");
        return ExitCode::from(2);
    };
    for _ in 0..n {
        f(black_box(inputs));
    }
    ExitCode::SUCCESS
}

fn table(i: &Inputs) -> ExitCode {
    let rows: Vec<(&str, Count)> = vec![
        ("single: plain struct", count(|| de_plain(&i.single_plain))),
        (
            "single: ours, tag first",
            count(|| de_ours(&i.single_first)),
        ),
        ("single: ours, tag last", count(|| de_ours(&i.single_last))),
        (
            "single: serde, tag first",
            count(|| de_serde(&i.single_first)),
        ),
        (
            "single: serde, tag last",
            count(|| de_serde(&i.single_last)),
        ),
        (
            "single: ours int, tag first",
            count(|| de_int(&i.single_int_first)),
        ),
        (
            "single: ours int, tag last",
            count(|| de_int(&i.single_int_last)),
        ),
        (
            "vec1000: plain structs",
            count(|| de_vec_plain(&i.vec_plain, &i.kinds)),
        ),
        (
            "vec1000: ours, tag first",
            count(|| de_vec_ours(&i.vec_first)),
        ),
        (
            "vec1000: ours, tag last",
            count(|| de_vec_ours(&i.vec_last)),
        ),
        (
            "vec1000: serde, tag first",
            count(|| de_vec_serde(&i.vec_first)),
        ),
        (
            "vec1000: serde, tag last",
            count(|| de_vec_serde(&i.vec_last)),
        ),
        (
            "vec1000: ours int, tag first",
            count(|| de_vec_int(&i.vec_int_first)),
        ),
        (
            "vec1000: ours int, tag last",
            count(|| de_vec_int(&i.vec_int_last)),
        ),
    ];
    let get = |name: &str| rows.iter().find(|(n, _)| *n == name).unwrap().1;

    println!("Allocator traffic per deserialize (serde_json::from_str, borrowed input)");
    println!(
        "{:<30} {:>10} {:>10} {:>12} {:>16}",
        "path", "allocs", "reallocs", "bytes", "calls vs plain"
    );
    for (name, c) in &rows {
        let base = if name.starts_with("vec1000") {
            get("vec1000: plain structs")
        } else {
            get("single: plain struct")
        };
        println!(
            "{:<30} {:>10} {:>10} {:>12} {:>16}",
            name,
            num(c.allocs),
            num(c.reallocs),
            num(c.bytes),
            signed(c.calls() - base.calls()),
        );
    }
    println!("(bytes = sizes requested by alloc plus new sizes requested by realloc)");

    // Serialization into a reused buffer, for completeness.
    let (ours, serde) = (&i.click_ours, &i.click_serde);
    let plain_vec = PlainEvents(&i.events);
    let mut buf = Vec::with_capacity(1 << 20);
    let ser_rows = [
        (
            "ser single: plain struct",
            count(|| ser_into(&mut buf, &i.click)),
        ),
        ("ser single: ours", count(|| ser_into(&mut buf, ours))),
        ("ser single: serde", count(|| ser_into(&mut buf, serde))),
        (
            "ser vec1000: plain structs",
            count(|| ser_into(&mut buf, &plain_vec)),
        ),
        ("ser vec1000: ours", count(|| ser_into(&mut buf, &i.events))),
        (
            "ser vec1000: serde",
            count(|| ser_into(&mut buf, &i.serde_events)),
        ),
    ];
    println!("\nAllocator traffic per serialize (serde_json::to_writer into a reused Vec<u8>)");
    for (name, c) in &ser_rows {
        println!(
            "{:<30} {:>10} {:>10} {:>12}",
            name,
            num(c.allocs),
            num(c.reallocs),
            num(c.bytes)
        );
    }

    // Invariant: the tag-first path allocates nothing beyond the payload.
    let mut failed = false;
    println!();
    for (plain, ours) in [
        ("single: plain struct", "single: ours, tag first"),
        ("single: plain struct", "single: ours int, tag first"),
        ("vec1000: plain structs", "vec1000: ours, tag first"),
        ("vec1000: plain structs", "vec1000: ours int, tag first"),
    ] {
        let (p, o) = (get(plain), get(ours));
        if o.calls() > p.calls() || o.bytes > p.bytes {
            failed = true;
            println!(
                "FAIL invariant: {ours} makes {} allocator calls ({} bytes) per deserialize, \
                 {plain} makes {} ({} bytes): the tag-first path must allocate nothing extra",
                num(o.calls()),
                num(o.bytes),
                num(p.calls()),
                num(p.bytes)
            );
        } else {
            println!("ok   invariant: {ours} allocates no more than {plain}");
        }
    }

    // Target (reported, not enforced here): tag last, at most one extra
    // allocation. A realloc counts: it is a trip to the allocator too.
    for (plain, ours, objects) in [
        ("single: plain struct", "single: ours, tag last", 1.0),
        (
            "vec1000: plain structs",
            "vec1000: ours, tag last",
            VEC_LEN as f64,
        ),
    ] {
        let (p, o) = (get(plain), get(ours));
        let allocs = (o.allocs - p.allocs) / objects;
        let reallocs = (o.reallocs - p.reallocs) / objects;
        let verdict = if allocs + reallocs <= 1.0 {
            "met   "
        } else {
            "MISSED"
        };
        println!(
            "{verdict} target: {ours}: {} extra allocs + {} extra reallocs per object \
             (target: at most one extra allocation)",
            num(allocs),
            num(reallocs)
        );
    }

    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn signed(v: f64) -> String {
    if v >= 0.0 {
        format!("+{}", num(v))
    } else {
        num(v)
    }
}

fn num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v}")
    } else {
        format!("{v:.2}")
    }
}

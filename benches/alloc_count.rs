//! Allocations per deserialize, per path, with a counting global allocator.
//!
//! `cargo bench --bench alloc_count` prints the table and exits non-zero if
//! an allocation invariant of the design breaks (not a timing): with the tag
//! first, our enums (one level or a two-level `nested` hierarchy) allocate
//! nothing beyond the plain payload struct, and our trait objects nothing
//! beyond the plain struct and its Box; a profile allocates nothing beyond
//! the attribute trait path.
//!
//! `<binary> --run <path> <iterations>` runs one path that many times and
//! nothing else, for instruction counts under valgrind; `--list` names the
//! paths (name, iterations to use, the path it is compared with, what it
//! is). `benches/instructions.sh` runs them all. See PERFORMANCE.md.
//! Every path is first checked to read and write what it should; `--run
//! <path> <iterations> --no-check` skips that, for a tool whose cost grows
//! with everything the process does (`benches/forwarding/run.sh`).

mod common;
mod scale;

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

/// One measured operation: name, iteration count for `--run` under
/// valgrind, the path it is compared with (its limit), description, and the
/// operation itself.
struct Path {
    name: String,
    iters: u64,
    base: String,
    what: String,
    run: Box<dyn Fn(&Inputs)>,
}

fn path(name: &str, what: &str, run: impl Fn(&Inputs) + 'static) -> Path {
    // Deep typetag chains cost tens of millions of instructions each, and
    // one read of canada.json about as much.
    let iters = if name.starts_with("canada_") {
        5
    } else if name.starts_with("deep_") {
        20
    } else if name.contains("vec") || name.starts_with("scale_") {
        100
    } else {
        10_000
    };
    let base = if let Some(depth) = name
        .strip_prefix("deep_")
        .and_then(|r| r.rsplit('_').next())
    {
        format!("deep_plain_{depth}")
    } else if name.starts_with("canada_") {
        "canada_plain".to_owned()
    } else if name.starts_with("ser_small") {
        "ser_small_plain".to_owned()
    } else if name.starts_with("small_") {
        "small_plain".to_owned()
    } else if name.starts_with("scale_") {
        "scale_plain".to_owned()
    } else if name.starts_with("pos_") {
        "pos_plain".to_owned()
    } else if name.starts_with("io_ser") {
        "io_ser_plain".to_owned()
    } else if name.starts_with("cbor_") {
        "cbor_plain".to_owned()
    } else if name.starts_with("io_") {
        "io_plain".to_owned()
    } else if name.starts_with("ser_vec") {
        "ser_vec_plain".to_owned()
    } else if name.starts_with("ser_") {
        "ser_plain".to_owned()
    } else if name == "vec_unknown_first" || name == "vec_value" {
        "vec_value".to_owned()
    } else if name.starts_with("unknown_") || name == "value" {
        "value".to_owned()
    } else if name.starts_with("vec") {
        "vec_plain".to_owned()
    } else {
        "plain".to_owned()
    };
    Path {
        name: name.to_owned(),
        iters,
        base,
        what: what.to_owned(),
        run: Box::new(run),
    }
}

/// Every measured operation, by name.
fn paths() -> Vec<Path> {
    let mut out = vec![
        path("plain", "single: plain struct", |i| {
            drop(black_box(de_plain(black_box(&i.single_plain))))
        }),
        path("ours_first", "single: ours, tag first", |i| {
            drop(black_box(de_ours(black_box(&i.single_first))))
        }),
        path("ours_last", "single: ours, tag last", |i| {
            drop(black_box(de_ours(black_box(&i.single_last))))
        }),
        path("serde_first", "single: serde, tag first", |i| {
            drop(black_box(de_serde(black_box(&i.single_first))))
        }),
        path("serde_last", "single: serde, tag last", |i| {
            drop(black_box(de_serde(black_box(&i.single_last))))
        }),
        path("int_first", "single: ours int, tag first", |i| {
            drop(black_box(de_int(black_box(&i.single_int_first))))
        }),
        path("int_last", "single: ours int, tag last", |i| {
            drop(black_box(de_int(black_box(&i.single_int_last))))
        }),
        path(
            "dyn_plain_boxed",
            "single: plain struct, boxed as dyn",
            |i| drop(black_box(de_plain_boxed(black_box(&i.single_plain)))),
        ),
        path("dyn_first", "single: ours dyn, tag first", |i| {
            drop(black_box(de_trait(black_box(&i.single_first))))
        }),
        path("dyn_last", "single: ours dyn, tag last", |i| {
            drop(black_box(de_trait(black_box(&i.single_last))))
        }),
        path(
            "compiled_first",
            "single: ours dyn compiled, tag first",
            |i| drop(black_box(de_compiled(black_box(&i.single_first)))),
        ),
        path(
            "compiled_last",
            "single: ours dyn compiled, tag last",
            |i| drop(black_box(de_compiled(black_box(&i.single_last)))),
        ),
        path(
            "slice_dyn_first",
            "from_slice single: ours dyn, tag first",
            |i| {
                drop(black_box(de_slice::<Box<dyn EventTrait>>(black_box(
                    &i.single_first,
                ))))
            },
        ),
        path(
            "slice_dyn_last",
            "from_slice single: ours dyn, tag last",
            |i| {
                drop(black_box(de_slice::<Box<dyn EventTrait>>(black_box(
                    &i.single_last,
                ))))
            },
        ),
        path(
            "slice_typetag_first",
            "from_slice single: typetag, tag first",
            |i| {
                drop(black_box(de_slice::<Box<dyn TtEvent>>(black_box(
                    &i.single_first,
                ))))
            },
        ),
        path(
            "slice_typetag_last",
            "from_slice single: typetag, tag last",
            |i| {
                drop(black_box(de_slice::<Box<dyn TtEvent>>(black_box(
                    &i.single_last,
                ))))
            },
        ),
        path("typetag_first", "single: typetag, tag first", |i| {
            drop(black_box(de_typetag(black_box(&i.single_first))))
        }),
        path("typetag_last", "single: typetag, tag last", |i| {
            drop(black_box(de_typetag(black_box(&i.single_last))))
        }),
        path("profile_first", "single: ours profile, tag first", |i| {
            drop(black_box(de_profile(
                &i.extra.profile,
                black_box(&i.single_first),
            )))
        }),
        path("profile_last", "single: ours profile, tag last", |i| {
            drop(black_box(de_profile(
                &i.extra.profile,
                black_box(&i.single_last),
            )))
        }),
        path("presence", "single: ours presence (no tag)", |i| {
            drop(black_box(de_presence(black_box(&i.single_plain))))
        }),
        path("nested_first", "single: ours 2-level, tag first", |i| {
            drop(black_box(de_nested(black_box(&i.single_first))))
        }),
        path("nested_last", "single: ours 2-level, tag last", |i| {
            drop(black_box(de_nested(black_box(&i.single_last))))
        }),
        path("value", "single: serde_json::Value", |i| {
            drop(black_box(de_value(black_box(
                &i.extra.single_unknown_first,
            ))))
        }),
        path("unknown_first", "single: ours Unknown, tag first", |i| {
            drop(black_box(de_open(black_box(&i.extra.single_unknown_first))))
        }),
        path("unknown_last", "single: ours Unknown, tag last", |i| {
            drop(black_box(de_open(black_box(&i.extra.single_unknown_last))))
        }),
        path("vec_plain", "vec1000: plain structs", |i| {
            drop(black_box(de_vec_plain(black_box(&i.vec_plain), &i.kinds)))
        }),
        path("vec_ours_first", "vec1000: ours, tag first", |i| {
            drop(black_box(de_vec_ours(black_box(&i.vec_first))))
        }),
        path("vec_ours_last", "vec1000: ours, tag last", |i| {
            drop(black_box(de_vec_ours(black_box(&i.vec_last))))
        }),
        path("vec_serde_first", "vec1000: serde, tag first", |i| {
            drop(black_box(de_vec_serde(black_box(&i.vec_first))))
        }),
        path("vec_serde_last", "vec1000: serde, tag last", |i| {
            drop(black_box(de_vec_serde(black_box(&i.vec_last))))
        }),
        path("vec_int_first", "vec1000: ours int, tag first", |i| {
            drop(black_box(de_vec_int(black_box(&i.vec_int_first))))
        }),
        path("vec_int_last", "vec1000: ours int, tag last", |i| {
            drop(black_box(de_vec_int(black_box(&i.vec_int_last))))
        }),
        path(
            "vec_dyn_plain_boxed",
            "vec1000: plain structs, boxed as dyn",
            |i| {
                drop(black_box(de_vec_plain_boxed(
                    black_box(&i.vec_plain),
                    &i.kinds,
                )))
            },
        ),
        path("vec_dyn_first", "vec1000: ours dyn, tag first", |i| {
            drop(black_box(de_vec_trait(black_box(&i.vec_first))))
        }),
        path("vec_dyn_last", "vec1000: ours dyn, tag last", |i| {
            drop(black_box(de_vec_trait(black_box(&i.vec_last))))
        }),
        path("vec_typetag_first", "vec1000: typetag, tag first", |i| {
            drop(black_box(de_vec_typetag(black_box(&i.vec_first))))
        }),
        path("vec_typetag_last", "vec1000: typetag, tag last", |i| {
            drop(black_box(de_vec_typetag(black_box(&i.vec_last))))
        }),
        path(
            "vec_profile_first",
            "vec1000: ours profile, tag first",
            |i| {
                drop(black_box(de_vec_profile(
                    &i.extra.profile,
                    black_box(&i.vec_first),
                )))
            },
        ),
        path("vec_profile_last", "vec1000: ours profile, tag last", |i| {
            drop(black_box(de_vec_profile(
                &i.extra.profile,
                black_box(&i.vec_last),
            )))
        }),
        path(
            "vec_profile_scope_first",
            "vec1000: ours profile.scope, tag first",
            |i| {
                drop(black_box(de_vec_profile_scope(
                    &i.extra.profile,
                    black_box(&i.vec_first),
                )))
            },
        ),
        path("vec_presence", "vec1000: ours presence (no tag)", |i| {
            drop(black_box(de_vec_presence(black_box(&i.vec_plain))))
        }),
        path(
            "vec_nested_first",
            "vec1000: ours 2-level, tag first",
            |i| drop(black_box(de_vec_nested(black_box(&i.vec_first)))),
        ),
        path("vec_nested_last", "vec1000: ours 2-level, tag last", |i| {
            drop(black_box(de_vec_nested(black_box(&i.vec_last))))
        }),
        path("vec_value", "vec1000: serde_json::Value", |i| {
            drop(black_box(de_vec_value(black_box(
                &i.extra.vec_unknown_first,
            ))))
        }),
        path(
            "vec_unknown_first",
            "vec1000: ours Unknown, tag first",
            |i| {
                drop(black_box(de_vec_open(black_box(
                    &i.extra.vec_unknown_first,
                ))))
            },
        ),
        path("ser_plain", "ser single: plain struct", |i| {
            ser_fresh(&i.click)
        }),
        path("ser_ours", "ser single: ours", |i| ser_fresh(&i.click_ours)),
        path("ser_serde", "ser single: serde", |i| {
            ser_fresh(&i.click_serde)
        }),
        path("ser_dyn", "ser single: ours dyn", |i| {
            ser_fresh(&i.extra.click_boxed)
        }),
        path("ser_typetag", "ser single: typetag", |i| {
            ser_fresh(&i.extra.click_tt)
        }),
        path("ser_compiled", "ser single: ours dyn compiled", |i| {
            ser_fresh(&i.extra.click_compiled)
        }),
        path("ser_profile", "ser single: ours profile", |i| {
            ser_fresh(&i.extra.profile.serializable(&*i.extra.click_boxed))
        }),
        path("ser_vec_plain", "ser vec1000: plain structs", |i| {
            ser_fresh(&PlainEvents(&i.events))
        }),
        path("ser_vec_ours", "ser vec1000: ours", |i| {
            ser_fresh(&i.events)
        }),
        path("ser_vec_serde", "ser vec1000: serde", |i| {
            ser_fresh(&i.serde_events)
        }),
        path("ser_vec_dyn", "ser vec1000: ours dyn", |i| {
            ser_fresh(&i.extra.boxed_events)
        }),
        path("ser_vec_typetag", "ser vec1000: typetag", |i| {
            ser_fresh(&i.extra.tt_events)
        }),
        path("ser_vec_profile", "ser vec1000: ours profile", |i| {
            ser_fresh(&ProfileEvents(&i.extra.profile, &i.extra.boxed_events))
        }),
        // Through `io::Read` / `io::Write`: serde_json's readers and writers
        // our trait objects have no compiled code for, so the erased path
        // (what every other format takes).
        path("io_plain", "io single: plain struct", |i| {
            drop(black_box(de_io::<Click>(black_box(&i.single_plain))))
        }),
        path("io_dyn_first", "io single: ours dyn, tag first", |i| {
            drop(black_box(de_io::<Box<dyn EventTrait>>(black_box(
                &i.single_first,
            ))))
        }),
        path("io_dyn_last", "io single: ours dyn, tag last", |i| {
            drop(black_box(de_io::<Box<dyn EventTrait>>(black_box(
                &i.single_last,
            ))))
        }),
        path("io_typetag_first", "io single: typetag, tag first", |i| {
            drop(black_box(de_io::<Box<dyn TtEvent>>(black_box(
                &i.single_first,
            ))))
        }),
        path("io_typetag_last", "io single: typetag, tag last", |i| {
            drop(black_box(de_io::<Box<dyn TtEvent>>(black_box(
                &i.single_last,
            ))))
        }),
        path("cbor_plain", "cbor single: plain struct", |i| {
            drop(black_box(de_cbor::<Click>(black_box(&i.extra.cbor_plain))))
        }),
        path("cbor_dyn_first", "cbor single: ours dyn, tag first", |i| {
            drop(black_box(de_cbor::<Box<dyn EventTrait>>(black_box(
                &i.extra.cbor_first,
            ))))
        }),
        path("cbor_dyn_last", "cbor single: ours dyn, tag last", |i| {
            drop(black_box(de_cbor::<Box<dyn EventTrait>>(black_box(
                &i.extra.cbor_last,
            ))))
        }),
        path("io_ser_plain", "io ser single: plain struct", |i| {
            ser_io(&i.click)
        }),
        path("io_ser_dyn", "io ser single: ours dyn", |i| {
            ser_io(&i.extra.click_boxed)
        }),
        path("io_ser_typetag", "io ser single: typetag", |i| {
            ser_io(&i.extra.click_tt)
        }),
    ];
    #[cfg(feature = "exact_numbers")]
    out.extend([
        path(
            "exact_first",
            "single: ours exact_numbers, tag first",
            |i| drop(black_box(de_exact(black_box(&i.single_first)))),
        ),
        path("exact_last", "single: ours exact_numbers, tag last", |i| {
            drop(black_box(de_exact(black_box(&i.single_last))))
        }),
        path(
            "profile_exact_last",
            "single: ours profile exact_numbers, tag last",
            |i| {
                drop(black_box(de_profile(
                    &i.extra.exact_profile,
                    black_box(&i.single_last),
                )))
            },
        ),
    ]);
    out.extend(small_paths());
    out.extend(repr_paths());
    out.extend(
        scale::paths()
            .into_iter()
            .map(|(name, what, run)| path(&name, &what, run)),
    );
    for (k, depth) in DEPTHS.into_iter().enumerate() {
        out.extend([
            path(
                &format!("deep_plain_{depth}"),
                &format!("depth {depth}: plain struct chain"),
                move |i| drop(black_box(deep_plain(black_box(&i.chains.plain[k])))),
            ),
            path(
                &format!("deep_ours_{depth}"),
                &format!("depth {depth}: ours enum, tag last"),
                move |i| drop(black_box(deep_ours(black_box(&i.chains.tag_last[k])))),
            ),
            path(
                &format!("deep_ours_dyn_{depth}"),
                &format!("depth {depth}: ours dyn, tag last"),
                move |i| drop(black_box(deep_ours_trait(black_box(&i.chains.tag_last[k])))),
            ),
            path(
                &format!("deep_serde_{depth}"),
                &format!("depth {depth}: serde, tag last"),
                move |i| drop(black_box(deep_serde(black_box(&i.chains.tag_last[k])))),
            ),
            path(
                &format!("deep_typetag_{depth}"),
                &format!("depth {depth}: typetag, tag last"),
                move |i| drop(black_box(deep_typetag(black_box(&i.chains.tag_last[k])))),
            ),
            path(
                &format!("deep_ours_dyn_first_{depth}"),
                &format!("depth {depth}: ours dyn, tag first"),
                move |i| {
                    drop(black_box(deep_ours_trait(black_box(
                        &i.chains.tag_first[k],
                    ))))
                },
            ),
            path(
                &format!("deep_typetag_first_{depth}"),
                &format!("depth {depth}: typetag, tag first"),
                move |i| drop(black_box(deep_typetag(black_box(&i.chains.tag_first[k])))),
            ),
        ]);
    }
    // canada.json, when it is there (read once, in every run's setup).
    if canada::text().is_some() {
        let text = || canada::text().unwrap_or_default();
        out.extend([
            path("canada_plain", "canada.json: plain structs", move |_| {
                drop(black_box(canada::de_plain(black_box(text()))))
            }),
            path("canada_serde", "canada.json: serde, tag first", move |_| {
                drop(black_box(canada::de_serde(black_box(text()))))
            }),
            path("canada_ours", "canada.json: ours, tag first", move |_| {
                drop(black_box(canada::de_ours(black_box(text()))))
            }),
        ]);
    }
    out
}

/// The one-field object (`common/small.rs`): read, tag first and last, and
/// write, for the enum, the trait object and the profile, beside the peers.
fn small_paths() -> Vec<Path> {
    vec![
        path("small_plain", "one field: plain struct", |i| {
            drop(black_box(de_small_plain(black_box(&i.small.plain))))
        }),
        path("small_ours_first", "one field: ours, tag first", |i| {
            drop(black_box(de_small_ours(black_box(&i.small.first))))
        }),
        path(
            "small_proto_first",
            "one field: hand-written tag-first reader, no checks",
            |i| drop(black_box(de_small_proto(black_box(&i.small.first)))),
        ),
        path(
            "small_proto_boxed",
            "one field: hand-written tag-first reader, boxed as dyn",
            |i| drop(black_box(de_small_proto_boxed(black_box(&i.small.first)))),
        ),
        path(
            "small_proto_open",
            "one field: hand-written tag-first reader, open table, boxed as dyn",
            |i| drop(black_box(de_small_proto_open(black_box(&i.small.first)))),
        ),
        path("small_ours_last", "one field: ours, tag last", |i| {
            drop(black_box(de_small_ours(black_box(&i.small.last))))
        }),
        path("small_serde_first", "one field: serde, tag first", |i| {
            drop(black_box(de_small_serde(black_box(&i.small.first))))
        }),
        path("small_serde_last", "one field: serde, tag last", |i| {
            drop(black_box(de_small_serde(black_box(&i.small.last))))
        }),
        path(
            "small_dyn_plain_boxed",
            "one field: plain struct, boxed as dyn",
            |i| drop(black_box(de_small_plain_boxed(black_box(&i.small.plain)))),
        ),
        path("small_dyn_first", "one field: ours dyn, tag first", |i| {
            drop(black_box(de_small_trait(black_box(&i.small.first))))
        }),
        path("small_dyn_last", "one field: ours dyn, tag last", |i| {
            drop(black_box(de_small_trait(black_box(&i.small.last))))
        }),
        path(
            "small_compiled_first",
            "one field: ours dyn compiled, tag first",
            |i| drop(black_box(de_small_compiled(black_box(&i.small.first)))),
        ),
        path(
            "small_compiled_last",
            "one field: ours dyn compiled, tag last",
            |i| drop(black_box(de_small_compiled(black_box(&i.small.last)))),
        ),
        path(
            "small_typetag_first",
            "one field: typetag, tag first",
            |i| drop(black_box(de_small_typetag(black_box(&i.small.first)))),
        ),
        path("small_typetag_last", "one field: typetag, tag last", |i| {
            drop(black_box(de_small_typetag(black_box(&i.small.last))))
        }),
        path(
            "small_profile_first",
            "one field: ours profile, tag first",
            |i| {
                drop(black_box(de_small_profile(
                    &i.small.profile,
                    black_box(&i.small.first),
                )))
            },
        ),
        path(
            "small_profile_last",
            "one field: ours profile, tag last",
            |i| {
                drop(black_box(de_small_profile(
                    &i.small.profile,
                    black_box(&i.small.last),
                )))
            },
        ),
        path("ser_small_plain", "ser one field: plain struct", |i| {
            ser_fresh(&i.small.dog)
        }),
        path("ser_small_ours", "ser one field: ours", |i| {
            ser_fresh(&i.small.ours)
        }),
        path("ser_small_serde", "ser one field: serde", |i| {
            ser_fresh(&i.small.serde)
        }),
        path("ser_small_dyn", "ser one field: ours dyn", |i| {
            ser_fresh(&i.small.boxed)
        }),
        path("ser_small_typetag", "ser one field: typetag", |i| {
            ser_fresh(&i.small.tt)
        }),
        path(
            "ser_small_compiled",
            "ser one field: ours dyn compiled",
            |i| ser_fresh(&i.small.compiled),
        ),
        path("ser_small_profile", "ser one field: ours profile", |i| {
            ser_fresh(&i.small.profile.serializable(&*i.small.boxed))
        }),
        path(
            "ser_small_profile_last",
            "ser one field: ours profile, tag last",
            |i| ser_fresh(&i.small.profile_last.serializable(&*i.small.boxed)),
        ),
    ]
}

/// The externally and adjacently tagged forms (`common/repr.rs`), for the
/// `Click` payload (base `plain`) and the one-field object (base
/// `small_plain`): ours as an enum beside serde's derived twin, ours as a
/// trait object and a profile beside typetag's; adjacent with the tag first
/// (`_first`) and the content first (`_last`); and written.
fn repr_paths() -> Vec<Path> {
    macro_rules! read {
        ($name:literal, $what:literal, $f:ident, $json:ident) => {
            path($name, $what, |i| {
                drop(black_box($f(black_box(&i.repr.$json))))
            })
        };
        ($name:literal, $what:literal, $f:ident, $profile:ident, $json:ident) => {
            path($name, $what, |i| {
                drop(black_box($f(&i.repr.$profile, black_box(&i.repr.$json))))
            })
        };
    }
    macro_rules! write {
        ($name:literal, $what:literal, $value:ident) => {
            path($name, $what, |i| ser_fresh(&i.repr.$value))
        };
        ($name:literal, $what:literal, $profile:ident, $value:ident) => {
            path($name, $what, |i| {
                ser_fresh(&i.repr.$profile.serializable(&*i.repr.$value))
            })
        };
    }
    vec![
        read!("ext_ours", "single: ours external", de_ext, ext_text),
        read!(
            "ext_serde",
            "single: serde external",
            de_ext_serde,
            ext_text
        ),
        read!(
            "ext_dyn",
            "single: ours dyn external",
            de_ext_trait,
            ext_text
        ),
        read!(
            "ext_dyn_compiled",
            "single: ours dyn compiled external",
            de_ext_compiled,
            ext_text
        ),
        read!(
            "ext_typetag",
            "single: typetag external",
            de_ext_typetag,
            ext_text
        ),
        read!(
            "ext_profile",
            "single: ours profile external",
            de_ext_profile,
            ext_profile,
            ext_text
        ),
        read!(
            "adj_ours_first",
            "single: ours adjacent, tag first",
            de_adj,
            adj_first
        ),
        read!(
            "adj_ours_last",
            "single: ours adjacent, content first",
            de_adj,
            adj_last
        ),
        read!(
            "adj_serde_first",
            "single: serde adjacent, tag first",
            de_adj_serde,
            adj_first
        ),
        read!(
            "adj_serde_last",
            "single: serde adjacent, content first",
            de_adj_serde,
            adj_last
        ),
        read!(
            "adj_dyn_first",
            "single: ours dyn adjacent, tag first",
            de_adj_trait,
            adj_first
        ),
        read!(
            "adj_dyn_last",
            "single: ours dyn adjacent, content first",
            de_adj_trait,
            adj_last
        ),
        read!(
            "adj_dyn_compiled_first",
            "single: ours dyn compiled adjacent, tag first",
            de_adj_compiled,
            adj_first
        ),
        read!(
            "adj_dyn_compiled_last",
            "single: ours dyn compiled adjacent, content first",
            de_adj_compiled,
            adj_last
        ),
        read!(
            "adj_typetag_first",
            "single: typetag adjacent, tag first",
            de_adj_typetag,
            adj_first
        ),
        read!(
            "adj_typetag_last",
            "single: typetag adjacent, content first",
            de_adj_typetag,
            adj_last
        ),
        read!(
            "adj_profile_first",
            "single: ours profile adjacent, tag first",
            de_adj_profile,
            adj_profile,
            adj_first
        ),
        read!(
            "adj_profile_last",
            "single: ours profile adjacent, content first",
            de_adj_profile,
            adj_profile,
            adj_last
        ),
        read!(
            "small_ext_ours",
            "one field: ours external",
            de_small_ext,
            small_ext_text
        ),
        read!(
            "small_ext_serde",
            "one field: serde external",
            de_small_ext_serde,
            small_ext_text
        ),
        read!(
            "small_ext_dyn",
            "one field: ours dyn external",
            de_small_ext_trait,
            small_ext_text
        ),
        read!(
            "small_ext_dyn_compiled",
            "one field: ours dyn compiled external",
            de_small_ext_compiled,
            small_ext_text
        ),
        read!(
            "small_ext_typetag",
            "one field: typetag external",
            de_small_ext_typetag,
            small_ext_text
        ),
        read!(
            "small_ext_profile",
            "one field: ours profile external",
            de_small_ext_profile,
            small_ext_profile,
            small_ext_text
        ),
        read!(
            "small_adj_ours_first",
            "one field: ours adjacent, tag first",
            de_small_adj,
            small_adj_first
        ),
        read!(
            "small_adj_ours_last",
            "one field: ours adjacent, content first",
            de_small_adj,
            small_adj_last
        ),
        read!(
            "small_adj_serde_first",
            "one field: serde adjacent, tag first",
            de_small_adj_serde,
            small_adj_first
        ),
        read!(
            "small_adj_serde_last",
            "one field: serde adjacent, content first",
            de_small_adj_serde,
            small_adj_last
        ),
        read!(
            "small_adj_dyn_first",
            "one field: ours dyn adjacent, tag first",
            de_small_adj_trait,
            small_adj_first
        ),
        read!(
            "small_adj_dyn_last",
            "one field: ours dyn adjacent, content first",
            de_small_adj_trait,
            small_adj_last
        ),
        read!(
            "small_adj_dyn_compiled_first",
            "one field: ours dyn compiled adjacent, tag first",
            de_small_adj_compiled,
            small_adj_first
        ),
        read!(
            "small_adj_dyn_compiled_last",
            "one field: ours dyn compiled adjacent, content first",
            de_small_adj_compiled,
            small_adj_last
        ),
        read!(
            "small_adj_typetag_first",
            "one field: typetag adjacent, tag first",
            de_small_adj_typetag,
            small_adj_first
        ),
        read!(
            "small_adj_typetag_last",
            "one field: typetag adjacent, content first",
            de_small_adj_typetag,
            small_adj_last
        ),
        read!(
            "small_adj_profile_first",
            "one field: ours profile adjacent, tag first",
            de_small_adj_profile,
            small_adj_profile,
            small_adj_first
        ),
        read!(
            "small_adj_profile_last",
            "one field: ours profile adjacent, content first",
            de_small_adj_profile,
            small_adj_profile,
            small_adj_last
        ),
        write!("ser_ext_ours", "ser single: ours external", ext),
        write!("ser_ext_serde", "ser single: serde external", ext_serde),
        write!("ser_ext_dyn", "ser single: ours dyn external", ext_boxed),
        write!("ser_ext_typetag", "ser single: typetag external", ext_tt),
        write!(
            "ser_ext_profile",
            "ser single: ours profile external",
            ext_profile, ext_boxed
        ),
        write!("ser_adj_ours", "ser single: ours adjacent", adj),
        write!("ser_adj_serde", "ser single: serde adjacent", adj_serde),
        write!("ser_adj_dyn", "ser single: ours dyn adjacent", adj_boxed),
        write!("ser_adj_typetag", "ser single: typetag adjacent", adj_tt),
        write!(
            "ser_adj_profile",
            "ser single: ours profile adjacent",
            adj_profile, adj_boxed
        ),
        write!(
            "ser_small_ext_ours",
            "ser one field: ours external",
            small_ext
        ),
        write!(
            "ser_small_ext_serde",
            "ser one field: serde external",
            small_ext_serde
        ),
        write!(
            "ser_small_ext_dyn",
            "ser one field: ours dyn external",
            small_ext_boxed
        ),
        write!(
            "ser_small_ext_typetag",
            "ser one field: typetag external",
            small_ext_tt
        ),
        write!(
            "ser_small_adj_ours",
            "ser one field: ours adjacent",
            small_adj
        ),
        write!(
            "ser_small_adj_serde",
            "ser one field: serde adjacent",
            small_adj_serde
        ),
        write!(
            "ser_small_adj_dyn",
            "ser one field: ours dyn adjacent",
            small_adj_boxed
        ),
        write!(
            "ser_small_adj_typetag",
            "ser one field: typetag adjacent",
            small_adj_tt
        ),
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

// The same through an `io::Write` that is not a `Vec<u8>`.
fn ser_io<T: serde::Serialize + ?Sized>(value: &T) {
    thread_local! {
        static BUF: std::cell::RefCell<std::io::Cursor<Vec<u8>>> =
            std::cell::RefCell::new(std::io::Cursor::new(Vec::with_capacity(1 << 20)));
    }
    BUF.with(|b| {
        let mut b = b.borrow_mut();
        b.set_position(0);
        serde_json::to_writer(&mut *b, black_box(value)).unwrap();
    });
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let unchecked =
        args.first().is_some_and(|a| a == "--run") && args.len() == 4 && args[3] == "--no-check";
    if unchecked {
        args.pop();
    }
    // Deep tag-last chains recurse through every level's deserializer: run
    // everything (checks included) on one thread with a big stack.
    run_on_big_stack(move || {
        let inputs = Inputs::new();
        if !unchecked {
            inputs.check();
        }

        match args.first().map(String::as_str) {
            Some("--list") => {
                for p in paths() {
                    println!("{:<24} {:>6} {:<16} {}", p.name, p.iters, p.base, p.what);
                }
                0
            }
            Some("--run") => run_one(&inputs, &args[1..]),
            Some("--allocs") => {
                // Per call, tab-separated, for benches/report.py.
                for p in paths() {
                    let c = count(|| (p.run)(&inputs));
                    println!("{}\t{}\t{}", p.name, c.calls(), c.bytes);
                }
                0
            }
            _ => table(&inputs),
        }
    })
    .into()
}

fn run_one(inputs: &Inputs, args: &[String]) -> u8 {
    let (Some(name), Some(n)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: alloc_count --run <path> <iterations> [--no-check]   (--list for paths)");
        return 2;
    };
    let Some(p) = paths().into_iter().find(|p| &p.name == name) else {
        eprintln!("unknown path {name:?}; --list names them");
        return 2;
    };
    for _ in 0..n {
        (p.run)(black_box(inputs));
    }
    0
}

/// A row of the table: its name, the row it is compared with, its counts.
struct Row {
    name: &'static str,
    base: &'static str,
    objects: f64,
    count: Count,
}

fn table(i: &Inputs) -> u8 {
    let x = &i.extra;
    let p = &x.profile;
    const SP: &str = "single: plain struct";
    const VP: &str = "vec1000: plain structs";
    const SV: &str = "single: serde_json::Value";
    const VV: &str = "vec1000: serde_json::Value";
    const N: f64 = VEC_LEN as f64;
    let row = |name, base, objects, count| Row {
        name,
        base,
        objects,
        count,
    };
    let mut rows: Vec<Row> = vec![
        row(SP, SP, 1.0, count(|| de_plain(&i.single_plain))),
        row(
            "single: ours, tag first",
            SP,
            1.0,
            count(|| de_ours(&i.single_first)),
        ),
        row(
            "single: ours, tag last",
            SP,
            1.0,
            count(|| de_ours(&i.single_last)),
        ),
        row(
            "single: serde, tag first",
            SP,
            1.0,
            count(|| de_serde(&i.single_first)),
        ),
        row(
            "single: serde, tag last",
            SP,
            1.0,
            count(|| de_serde(&i.single_last)),
        ),
        row(
            "single: ours int, tag first",
            SP,
            1.0,
            count(|| de_int(&i.single_int_first)),
        ),
        row(
            "single: ours int, tag last",
            SP,
            1.0,
            count(|| de_int(&i.single_int_last)),
        ),
        row(
            "single: plain struct, boxed",
            SP,
            1.0,
            count(|| de_plain_boxed(&i.single_plain)),
        ),
        row(
            "single: ours dyn, tag first",
            SP,
            1.0,
            count(|| de_trait(&i.single_first)),
        ),
        row(
            "single: ours dyn, tag last",
            SP,
            1.0,
            count(|| de_trait(&i.single_last)),
        ),
        row(
            "single: ours dyn compiled, tag first",
            SP,
            1.0,
            count(|| de_compiled(&i.single_first)),
        ),
        row(
            "single: ours dyn compiled, tag last",
            SP,
            1.0,
            count(|| de_compiled(&i.single_last)),
        ),
        row(
            "single: typetag, tag first",
            SP,
            1.0,
            count(|| de_typetag(&i.single_first)),
        ),
        row(
            "single: typetag, tag last",
            SP,
            1.0,
            count(|| de_typetag(&i.single_last)),
        ),
        row(
            "single: profile, tag first",
            SP,
            1.0,
            count(|| de_profile(p, &i.single_first)),
        ),
        row(
            "single: profile, tag last",
            SP,
            1.0,
            count(|| de_profile(p, &i.single_last)),
        ),
        row(
            "single: ours presence",
            SP,
            1.0,
            count(|| de_presence(&i.single_plain)),
        ),
        row(
            "single: ours 2-level, tag first",
            SP,
            1.0,
            count(|| de_nested(&i.single_first)),
        ),
        row(
            "single: ours 2-level, tag last",
            SP,
            1.0,
            count(|| de_nested(&i.single_last)),
        ),
        row(SV, SV, 1.0, count(|| de_value(&x.single_unknown_first))),
        row(
            "single: Unknown, tag first",
            SV,
            1.0,
            count(|| de_open(&x.single_unknown_first)),
        ),
        row(
            "single: Unknown, tag last",
            SV,
            1.0,
            count(|| de_open(&x.single_unknown_last)),
        ),
        row(VP, VP, N, count(|| de_vec_plain(&i.vec_plain, &i.kinds))),
        row(
            "vec1000: ours, tag first",
            VP,
            N,
            count(|| de_vec_ours(&i.vec_first)),
        ),
        row(
            "vec1000: ours, tag last",
            VP,
            N,
            count(|| de_vec_ours(&i.vec_last)),
        ),
        row(
            "vec1000: serde, tag first",
            VP,
            N,
            count(|| de_vec_serde(&i.vec_first)),
        ),
        row(
            "vec1000: serde, tag last",
            VP,
            N,
            count(|| de_vec_serde(&i.vec_last)),
        ),
        row(
            "vec1000: ours int, tag first",
            VP,
            N,
            count(|| de_vec_int(&i.vec_int_first)),
        ),
        row(
            "vec1000: ours int, tag last",
            VP,
            N,
            count(|| de_vec_int(&i.vec_int_last)),
        ),
        row(
            "vec1000: plain structs, boxed",
            VP,
            N,
            count(|| de_vec_plain_boxed(&i.vec_plain, &i.kinds)),
        ),
        row(
            "vec1000: ours dyn, tag first",
            VP,
            N,
            count(|| de_vec_trait(&i.vec_first)),
        ),
        row(
            "vec1000: ours dyn, tag last",
            VP,
            N,
            count(|| de_vec_trait(&i.vec_last)),
        ),
        row(
            "vec1000: typetag, tag first",
            VP,
            N,
            count(|| de_vec_typetag(&i.vec_first)),
        ),
        row(
            "vec1000: typetag, tag last",
            VP,
            N,
            count(|| de_vec_typetag(&i.vec_last)),
        ),
        row(
            "vec1000: profile, tag first",
            VP,
            N,
            count(|| de_vec_profile(p, &i.vec_first)),
        ),
        row(
            "vec1000: profile, tag last",
            VP,
            N,
            count(|| de_vec_profile(p, &i.vec_last)),
        ),
        row(
            "vec1000: profile.scope, tag 1st",
            VP,
            N,
            count(|| de_vec_profile_scope(p, &i.vec_first)),
        ),
        row(
            "vec1000: ours presence",
            VP,
            N,
            count(|| de_vec_presence(&i.vec_plain)),
        ),
        row(
            "vec1000: ours 2-level, tag first",
            VP,
            N,
            count(|| de_vec_nested(&i.vec_first)),
        ),
        row(
            "vec1000: ours 2-level, tag last",
            VP,
            N,
            count(|| de_vec_nested(&i.vec_last)),
        ),
        row(VV, VV, N, count(|| de_vec_value(&x.vec_unknown_first))),
        row(
            "vec1000: Unknown, tag first",
            VV,
            N,
            count(|| de_vec_open(&x.vec_unknown_first)),
        ),
    ];
    rows.extend(repr_rows(i));
    // Recursive chains, tag last at every level ("objects" = levels).
    const DEEP: [[&str; 7]; 3] = [
        [
            "depth 50: plain",
            "depth 50: ours enum",
            "depth 50: ours dyn",
            "depth 50: serde",
            "depth 50: typetag",
            "depth 50: ours dyn, tag first",
            "depth 50: typetag, tag first",
        ],
        [
            "depth 100: plain",
            "depth 100: ours enum",
            "depth 100: ours dyn",
            "depth 100: serde",
            "depth 100: typetag",
            "depth 100: ours dyn, tag first",
            "depth 100: typetag, tag first",
        ],
        [
            "depth 200: plain",
            "depth 200: ours enum",
            "depth 200: ours dyn",
            "depth 200: serde",
            "depth 200: typetag",
            "depth 200: ours dyn, tag first",
            "depth 200: typetag, tag first",
        ],
    ];
    #[cfg(feature = "exact_numbers")]
    rows.push(row(
        "single: ours exact_numbers, tag last",
        SP,
        1.0,
        count(|| de_exact(&i.single_last)),
    ));
    for (k, depth) in DEPTHS.into_iter().enumerate() {
        let (plain, last) = (&i.chains.plain[k], &i.chains.tag_last[k]);
        let first = &i.chains.tag_first[k];
        let [np, no, nd, ns, nt, ndf, ntf] = DEEP[k];
        let levels = depth as f64;
        rows.extend([
            row(np, np, levels, count(|| deep_plain(plain))),
            row(no, np, levels, count(|| deep_ours(last))),
            row(nd, np, levels, count(|| deep_ours_trait(last))),
            row(ns, np, levels, count(|| deep_serde(last))),
            row(nt, np, levels, count(|| deep_typetag(last))),
            row(ndf, np, levels, count(|| deep_ours_trait(first))),
            row(ntf, np, levels, count(|| deep_typetag(first))),
        ]);
    }
    // canada.json (one object: the file), when it is there.
    const CP: &str = "canada.json: plain structs";
    const CO: &str = "canada.json: ours, tag first";
    let canada_text = canada::text();
    if let Some(text) = canada_text {
        canada::check(text);
        rows.extend([
            row(CP, CP, 1.0, count(|| canada::de_plain(text))),
            row(
                "canada.json: serde, tag first",
                CP,
                1.0,
                count(|| canada::de_serde(text)),
            ),
            row(CO, CP, 1.0, count(|| canada::de_ours(text))),
        ]);
    }
    let get = |name: &str| {
        rows.iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no row {name}"))
            .count
    };

    println!("Allocator traffic per deserialize (serde_json::from_str, borrowed input)");
    println!(
        "{:<34} {:>9} {:>9} {:>10} {:>13} {:>12}",
        "path", "allocs", "reallocs", "bytes", "calls vs base", "per object"
    );
    for r in &rows {
        let c = r.count;
        let extra = c.calls() - get(r.base).calls();
        println!(
            "{:<34} {:>9} {:>9} {:>10} {:>13} {:>12}",
            r.name,
            num(c.allocs),
            num(c.reallocs),
            num(c.bytes),
            signed(extra),
            signed(extra / r.objects),
        );
    }
    println!(
        "(bytes = sizes requested by alloc plus new sizes requested by realloc; \
         base = the plain row of the scenario, serde_json::Value for Unknown; \
         per object = per level for the depth rows)"
    );

    // Serialization into a reused buffer, for completeness.
    let (ours, serde) = (&i.click_ours, &i.click_serde);
    let plain_vec = PlainEvents(&i.events);
    let profile_vec = ProfileEvents(p, &x.boxed_events);
    let profile_one = p.serializable(&*x.click_boxed);
    let mut buf = Vec::with_capacity(1 << 20);
    let ser_rows = [
        (
            "ser single: plain struct",
            count(|| ser_into(&mut buf, &i.click)),
        ),
        ("ser single: ours", count(|| ser_into(&mut buf, ours))),
        ("ser single: serde", count(|| ser_into(&mut buf, serde))),
        (
            "ser single: ours dyn",
            count(|| ser_into(&mut buf, &x.click_boxed)),
        ),
        (
            "ser single: typetag",
            count(|| ser_into(&mut buf, &x.click_tt)),
        ),
        (
            "ser single: profile",
            count(|| ser_into(&mut buf, &profile_one)),
        ),
        (
            "ser vec1000: plain structs",
            count(|| ser_into(&mut buf, &plain_vec)),
        ),
        ("ser vec1000: ours", count(|| ser_into(&mut buf, &i.events))),
        (
            "ser vec1000: serde",
            count(|| ser_into(&mut buf, &i.serde_events)),
        ),
        (
            "ser vec1000: ours dyn",
            count(|| ser_into(&mut buf, &x.boxed_events)),
        ),
        (
            "ser vec1000: typetag",
            count(|| ser_into(&mut buf, &x.tt_events)),
        ),
        (
            "ser vec1000: profile",
            count(|| ser_into(&mut buf, &profile_vec)),
        ),
    ];
    println!("\nAllocator traffic per serialize (serde_json::to_writer into a reused Vec<u8>)");
    for (name, c) in &ser_rows {
        println!(
            "{:<34} {:>9} {:>9} {:>10}",
            name,
            num(c.allocs),
            num(c.reallocs),
            num(c.bytes)
        );
    }

    // Invariants (enforced: exit status 1 if one breaks). `limit` is what
    // `path` may not exceed, in allocator calls and in bytes.
    let mut failed = false;
    println!();
    for (limit, path, rule) in [
        (SP, "single: ours, tag first", "nothing beyond the payload"),
        (
            SP,
            "single: ours int, tag first",
            "nothing beyond the payload",
        ),
        (VP, "vec1000: ours, tag first", "nothing beyond the payload"),
        (
            VP,
            "vec1000: ours int, tag first",
            "nothing beyond the payload",
        ),
        (
            SP,
            "single: ours 2-level, tag first",
            "nothing beyond the payload",
        ),
        (
            VP,
            "vec1000: ours 2-level, tag first",
            "nothing beyond the payload",
        ),
        (
            "single: plain struct, boxed",
            "single: ours dyn, tag first",
            "nothing beyond the payload and its Box",
        ),
        (
            "vec1000: plain structs, boxed",
            "vec1000: ours dyn, tag first",
            "nothing beyond the payload and its Box",
        ),
        (
            "single: ours dyn, tag first",
            "single: profile, tag first",
            "nothing beyond the trait path",
        ),
        (SP, "single: ours external", "nothing beyond the payload"),
        (
            SP,
            "single: ours adj, tag 1st",
            "nothing beyond the payload",
        ),
        (
            "single: plain struct, boxed",
            "single: ours dyn external",
            "nothing beyond the payload and its Box",
        ),
        (
            "single: plain struct, boxed",
            "single: ours dyn adj, tag 1st",
            "nothing beyond the payload and its Box",
        ),
        (
            "single: plain struct, boxed",
            "single: profile external",
            "nothing beyond the payload and its Box",
        ),
        (
            "single: plain struct, boxed",
            "single: profile adj, tag 1st",
            "nothing beyond the payload and its Box",
        ),
        (
            "single: ours dyn, tag last",
            "single: profile, tag last",
            "nothing beyond the trait path",
        ),
        (
            "vec1000: ours dyn, tag first",
            "vec1000: profile, tag first",
            "nothing beyond the trait path",
        ),
        (
            "vec1000: ours dyn, tag last",
            "vec1000: profile, tag last",
            "nothing beyond the trait path",
        ),
    ] {
        let (l, o) = (get(limit), get(path));
        if o.calls() > l.calls() || o.bytes > l.bytes {
            failed = true;
            println!(
                "FAIL invariant: {path} makes {} allocator calls ({} bytes), \
                 {limit} makes {} ({} bytes): it must allocate {rule}",
                num(o.calls()),
                num(o.bytes),
                num(l.calls()),
                num(l.bytes)
            );
        } else {
            println!("ok   invariant: {path} allocates no more than {limit} ({rule})");
        }
    }
    // Calls only: the enum is 8 bytes bigger than the plain struct, and the
    // `Vec` of features holding it grows by that much per slot.
    if canada_text.is_some() {
        let (l, o) = (get(CP), get(CO));
        let ok = o.calls() <= l.calls();
        failed |= !ok;
        println!(
            "{} invariant: {CO} makes no more allocator calls than {CP} \
             (nothing beyond the payload; bytes {})",
            if ok { "ok  " } else { "FAIL" },
            signed(o.bytes - l.bytes)
        );
    }
    // The boxed baselines are the plain ones plus exactly one Box per object.
    for (plain, boxed, objects) in [
        (SP, "single: plain struct, boxed", 1.0),
        (VP, "vec1000: plain structs, boxed", N),
    ] {
        let (p, b) = (get(plain), get(boxed));
        let ok = b.allocs - p.allocs == objects && b.reallocs == p.reallocs;
        failed |= !ok;
        println!(
            "{} baseline: {boxed} = {plain} + {} allocs, {} reallocs",
            if ok { "ok  " } else { "FAIL" },
            signed(b.allocs - p.allocs),
            signed(b.reallocs - p.reallocs)
        );
    }

    // Targets (reported, not enforced here): tag last, at most one extra
    // allocation per object beyond the limit (for trait objects: beyond the
    // limit and its Box). A realloc counts: it is a trip to the allocator too.
    for (limit, path, objects) in [
        (SP, "single: ours, tag last", 1.0),
        (VP, "vec1000: ours, tag last", N),
        (
            "single: plain struct, boxed",
            "single: ours dyn, tag last",
            1.0,
        ),
        (
            "vec1000: plain structs, boxed",
            "vec1000: ours dyn, tag last",
            N,
        ),
    ] {
        let (l, o) = (get(limit), get(path));
        let allocs = (o.allocs - l.allocs) / objects;
        let reallocs = (o.reallocs - l.reallocs) / objects;
        let verdict = if allocs + reallocs <= 1.0 {
            "met   "
        } else {
            "MISSED"
        };
        println!(
            "{verdict} target: {path}: {} extra allocs + {} extra reallocs per object \
             over {limit} (target: at most one extra allocation)",
            num(allocs),
            num(reallocs)
        );
    }

    u8::from(failed)
}

/// The external and adjacent rows of the allocation table (`common/repr.rs`).
fn repr_rows(i: &Inputs) -> Vec<Row> {
    const SP: &str = "single: plain struct";
    let r = &i.repr;
    let row = |name, count| Row {
        name,
        base: SP,
        objects: 1.0,
        count,
    };
    let (ext, first, last) = (&r.ext_text, &r.adj_first, &r.adj_last);
    vec![
        row("single: ours external", count(|| de_ext(ext))),
        row("single: serde external", count(|| de_ext_serde(ext))),
        row("single: ours dyn external", count(|| de_ext_trait(ext))),
        row("single: typetag external", count(|| de_ext_typetag(ext))),
        row(
            "single: profile external",
            count(|| de_ext_profile(&r.ext_profile, ext)),
        ),
        row("single: ours adj, tag 1st", count(|| de_adj(first))),
        row("single: ours adj, content 1st", count(|| de_adj(last))),
        row("single: serde adj, tag 1st", count(|| de_adj_serde(first))),
        row(
            "single: serde adj, content 1st",
            count(|| de_adj_serde(last)),
        ),
        row(
            "single: ours dyn adj, tag 1st",
            count(|| de_adj_trait(first)),
        ),
        row(
            "single: ours dyn adj, content 1st",
            count(|| de_adj_trait(last)),
        ),
        row(
            "single: typetag adj, tag 1st",
            count(|| de_adj_typetag(first)),
        ),
        row(
            "single: typetag adj, content 1st",
            count(|| de_adj_typetag(last)),
        ),
        row(
            "single: profile adj, tag 1st",
            count(|| de_adj_profile(&r.adj_profile, first)),
        ),
    ]
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

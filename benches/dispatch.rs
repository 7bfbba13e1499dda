//! Dispatch cost against the limit (the plain payload struct) and against
//! the peers (serde's internally tagged enum, typetag), all in one run.
//!
//! `cargo bench --bench dispatch` runs every group, then prints each group's
//! ratios to its baseline entry (the plain struct; `serde_json::Value` for
//! the `Unknown` fallback), and a per-level table for the recursive chains,
//! read from the estimates criterion wrote in this run. See PERFORMANCE.md.

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::*;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode};

/// One group per scenario: (group, baseline entry, entries). Every group
/// starts with its baseline.
const GROUPS: &[(&str, &str, &[&str])] = &[
    ("de_single", "plain", ENUM),
    ("de_vec1000", "plain", ENUM),
    ("ser_single", "plain", &["plain", "ours", "serde"]),
    ("ser_vec1000", "plain", &["plain", "ours", "serde"]),
    ("de_dyn_single", "plain", DYN),
    ("de_dyn_vec1000", "plain", DYN),
    (
        "ser_dyn_single",
        "plain",
        &["plain", "ours", "profile", "typetag"],
    ),
    (
        "ser_dyn_vec1000",
        "plain",
        &["plain", "ours", "profile", "typetag"],
    ),
    ("de_modes_single", "plain", MODES),
    ("de_modes_vec1000", "plain", MODES),
    ("de_unknown_single", "value", &["value", "ours_unknown_tag"]),
    (
        "de_unknown_vec1000",
        "value",
        &["value", "ours_unknown_tag"],
    ),
    ("de_small", "plain", SMALL),
    ("de_dyn_small", "plain", DYN),
    ("ser_small", "plain", &["plain", "ours", "serde"]),
    (
        "ser_dyn_small",
        "plain",
        &["plain", "ours", "profile", "profile_tag_last", "typetag"],
    ),
    ("de_external_single", "plain", REPR_EXTERNAL),
    ("de_adjacent_single", "plain", REPR_ADJACENT),
    ("ser_repr_single", "plain", REPR_SER),
    ("de_external_small", "plain", REPR_EXTERNAL),
    ("de_adjacent_small", "plain", REPR_ADJACENT),
    ("ser_repr_small", "plain", REPR_SER),
    (CANADA_GROUP, "plain", &["plain", "serde", "ours"]),
];

/// The externally tagged form (`common/repr.rs`): ours as an enum beside
/// serde's derived enum, ours as a trait object and a profile beside
/// typetag's.
const REPR_EXTERNAL: &[&str] = &[
    "plain",
    "plain_boxed",
    "ours",
    "serde",
    "ours_dyn",
    "profile",
    "typetag",
];

/// The adjacently tagged form, tag first and content first.
const REPR_ADJACENT: &[&str] = &[
    "plain",
    "plain_boxed",
    "ours_tag_first",
    "ours_content_first",
    "serde_tag_first",
    "serde_content_first",
    "ours_dyn_tag_first",
    "ours_dyn_content_first",
    "profile_tag_first",
    "profile_content_first",
    "typetag_tag_first",
    "typetag_content_first",
];

/// Both forms written.
const REPR_SER: &[&str] = &[
    "plain",
    "external_ours",
    "external_serde",
    "external_ours_dyn",
    "external_typetag",
    "adjacent_ours",
    "adjacent_serde",
    "adjacent_ours_dyn",
    "adjacent_typetag",
];

/// The one-field object (`common/small.rs`): ours, serde's twin and the
/// hand-written tag-first reader that checks nothing (`ProtoPet`), also
/// with its result boxed as the trait object (the limit of ours dyn).
const SMALL: &[&str] = &[
    "plain",
    "proto_tag_first",
    "proto_boxed_tag_first",
    "ours_tag_first",
    "ours_tag_last",
    "serde_tag_first",
    "serde_tag_last",
];

/// canada.json read with its geometry as plain structs, serde's tagged
/// enum and ours (`common/canada.rs`).
const CANADA_GROUP: &str = "de_canada";

/// Enums: ours (string and int tags) and serde's twin, tag first and last.
const ENUM: &[&str] = &[
    "plain",
    "ours_tag_first",
    "ours_tag_last",
    "ours_int_tag_first",
    "ours_int_tag_last",
    "serde_tag_first",
    "serde_tag_last",
];

/// Trait objects: the plain struct, the plain struct boxed as the trait
/// object (the limit plus the one Box), ours through the attribute registry
/// and through a profile, and typetag.
const DYN: &[&str] = &[
    "plain",
    "plain_boxed",
    "ours_tag_first",
    "ours_tag_last",
    "profile_tag_first",
    "profile_tag_last",
    "typetag_tag_first",
    "typetag_tag_last",
];

/// Presence mode (the untagged payload) and the two-level hierarchy.
const MODES: &[&str] = &["plain", "presence", "nested_tag_first", "nested_tag_last"];

/// Recursive chains, tag last at every level: entries `<impl>/<depth>`.
const DEPTH_GROUP: &str = "de_depth_tag_last";
const DEPTH_IMPLS: &[&str] = &["plain", "ours", "ours_dyn", "serde", "typetag"];

fn group<'c>(c: &'c mut Criterion, name: &str) -> BenchmarkGroup<'c, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(30)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500));
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
    g.bench_function("ours_int_tag_first", |b| {
        b.iter(|| de_int(black_box(&i.single_int_first)))
    });
    g.bench_function("ours_int_tag_last", |b| {
        b.iter(|| de_int(black_box(&i.single_int_last)))
    });
    #[cfg(feature = "exact_numbers")]
    g.bench_function("ours_exact_tag_last", |b| {
        b.iter(|| de_exact(black_box(&i.single_last)))
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
    g.bench_function("ours_int_tag_first", |b| {
        b.iter(|| de_vec_int(black_box(&i.vec_int_first)))
    });
    g.bench_function("ours_int_tag_last", |b| {
        b.iter(|| de_vec_int(black_box(&i.vec_int_last)))
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

fn de_dyn(c: &mut Criterion, i: &Inputs) {
    let p = &i.extra.profile;
    let mut g = group(c, "de_dyn_single");
    g.bench_function("plain", |b| b.iter(|| de_plain(black_box(&i.single_plain))));
    g.bench_function("plain_boxed", |b| {
        b.iter(|| de_plain_boxed(black_box(&i.single_plain)))
    });
    for (pos, json) in [("first", &i.single_first), ("last", &i.single_last)] {
        g.bench_function(format!("ours_tag_{pos}"), |b| {
            b.iter(|| de_trait(black_box(json)))
        });
        g.bench_function(format!("profile_tag_{pos}"), |b| {
            b.iter(|| de_profile(p, black_box(json)))
        });
        g.bench_function(format!("typetag_tag_{pos}"), |b| {
            b.iter(|| de_typetag(black_box(json)))
        });
    }
    g.finish();

    let mut g = group(c, "de_dyn_vec1000");
    g.bench_function("plain", |b| {
        b.iter(|| de_vec_plain(black_box(&i.vec_plain), &i.kinds))
    });
    g.bench_function("plain_boxed", |b| {
        b.iter(|| de_vec_plain_boxed(black_box(&i.vec_plain), &i.kinds))
    });
    for (pos, json) in [("first", &i.vec_first), ("last", &i.vec_last)] {
        g.bench_function(format!("ours_tag_{pos}"), |b| {
            b.iter(|| de_vec_trait(black_box(json)))
        });
        g.bench_function(format!("profile_tag_{pos}"), |b| {
            b.iter(|| de_vec_profile(p, black_box(json)))
        });
        g.bench_function(format!("typetag_tag_{pos}"), |b| {
            b.iter(|| de_vec_typetag(black_box(json)))
        });
    }
    g.finish();
}

fn ser_dyn(c: &mut Criterion, i: &Inputs) {
    let x = &i.extra;
    let mut buf = Vec::with_capacity(1 << 20);
    let mut g = group(c, "ser_dyn_single");
    let profile_one = x.profile.serializable(&*x.click_boxed);
    g.bench_function("plain", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&i.click)))
    });
    g.bench_function("ours", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&x.click_boxed)))
    });
    g.bench_function("profile", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&profile_one)))
    });
    g.bench_function("typetag", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&x.click_tt)))
    });
    g.finish();

    let plain = PlainEvents(&i.events);
    let profile_vec = ProfileEvents(&x.profile, &x.boxed_events);
    let mut g = group(c, "ser_dyn_vec1000");
    g.bench_function("plain", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&plain)))
    });
    g.bench_function("ours", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&x.boxed_events)))
    });
    g.bench_function("profile", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&profile_vec)))
    });
    g.bench_function("typetag", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&x.tt_events)))
    });
    g.finish();
}

/// The one-field object, beside the `Click` groups: enum, trait object and
/// profile, read with the tag first and last, and written.
fn small(c: &mut Criterion, i: &Inputs) {
    let s = &i.small;
    let mut g = group(c, "de_small");
    g.bench_function("plain", |b| b.iter(|| de_small_plain(black_box(&s.plain))));
    g.bench_function("proto_tag_first", |b| {
        b.iter(|| de_small_proto(black_box(&s.first)))
    });
    g.bench_function("proto_boxed_tag_first", |b| {
        b.iter(|| de_small_proto_boxed(black_box(&s.first)))
    });
    for (pos, json) in [("first", &s.first), ("last", &s.last)] {
        g.bench_function(format!("ours_tag_{pos}"), |b| {
            b.iter(|| de_small_ours(black_box(json)))
        });
        g.bench_function(format!("serde_tag_{pos}"), |b| {
            b.iter(|| de_small_serde(black_box(json)))
        });
    }
    g.finish();

    let mut g = group(c, "de_dyn_small");
    g.bench_function("plain", |b| b.iter(|| de_small_plain(black_box(&s.plain))));
    g.bench_function("plain_boxed", |b| {
        b.iter(|| de_small_plain_boxed(black_box(&s.plain)))
    });
    // In this group too, so the trait objects' ratio to it is of one run.
    g.bench_function("proto_boxed_tag_first", |b| {
        b.iter(|| de_small_proto_boxed(black_box(&s.first)))
    });
    g.bench_function("proto_open_tag_first", |b| {
        b.iter(|| de_small_proto_open(black_box(&s.first)))
    });
    for (pos, json) in [("first", &s.first), ("last", &s.last)] {
        g.bench_function(format!("ours_tag_{pos}"), |b| {
            b.iter(|| de_small_trait(black_box(json)))
        });
        g.bench_function(format!("compiled_tag_{pos}"), |b| {
            b.iter(|| de_small_compiled(black_box(json)))
        });
        g.bench_function(format!("profile_tag_{pos}"), |b| {
            b.iter(|| de_small_profile(&s.profile, black_box(json)))
        });
        g.bench_function(format!("typetag_tag_{pos}"), |b| {
            b.iter(|| de_small_typetag(black_box(json)))
        });
    }
    g.finish();

    let mut buf = Vec::with_capacity(4096);
    let mut g = group(c, "ser_small");
    g.bench_function("plain", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&s.dog)))
    });
    g.bench_function("ours", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&s.ours)))
    });
    g.bench_function("serde", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&s.serde)))
    });
    g.finish();

    let profiled = s.profile.serializable(&*s.boxed);
    let profiled_last = s.profile_last.serializable(&*s.boxed);
    let mut g = group(c, "ser_dyn_small");
    g.bench_function("plain", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&s.dog)))
    });
    g.bench_function("ours", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&s.boxed)))
    });
    g.bench_function("profile", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&profiled)))
    });
    g.bench_function("profile_tag_last", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&profiled_last)))
    });
    g.bench_function("typetag", |b| {
        b.iter(|| ser_into(&mut buf, black_box(&s.tt)))
    });
    g.finish();
}

/// The external and adjacent forms (`common/repr.rs`), for `Click` and for
/// the one-field object, read and written, beside serde's and typetag's.
fn representations(c: &mut Criterion, i: &Inputs) {
    let r = &i.repr;
    let s = &i.small;

    let mut g = group(c, "de_external_single");
    g.bench_function("plain", |b| b.iter(|| de_plain(black_box(&i.single_plain))));
    g.bench_function("plain_boxed", |b| {
        b.iter(|| de_plain_boxed(black_box(&i.single_plain)))
    });
    let ext = &r.ext_text;
    g.bench_function("ours", |b| b.iter(|| de_ext(black_box(ext))));
    g.bench_function("serde", |b| b.iter(|| de_ext_serde(black_box(ext))));
    g.bench_function("ours_dyn", |b| b.iter(|| de_ext_trait(black_box(ext))));
    g.bench_function("profile", |b| {
        b.iter(|| de_ext_profile(&r.ext_profile, black_box(ext)))
    });
    g.bench_function("typetag", |b| b.iter(|| de_ext_typetag(black_box(ext))));
    g.finish();

    let mut g = group(c, "de_adjacent_single");
    g.bench_function("plain", |b| b.iter(|| de_plain(black_box(&i.single_plain))));
    g.bench_function("plain_boxed", |b| {
        b.iter(|| de_plain_boxed(black_box(&i.single_plain)))
    });
    for (pos, json) in [("tag", &r.adj_first), ("content", &r.adj_last)] {
        g.bench_function(format!("ours_{pos}_first"), |b| {
            b.iter(|| de_adj(black_box(json)))
        });
        g.bench_function(format!("serde_{pos}_first"), |b| {
            b.iter(|| de_adj_serde(black_box(json)))
        });
        g.bench_function(format!("ours_dyn_{pos}_first"), |b| {
            b.iter(|| de_adj_trait(black_box(json)))
        });
        g.bench_function(format!("profile_{pos}_first"), |b| {
            b.iter(|| de_adj_profile(&r.adj_profile, black_box(json)))
        });
        g.bench_function(format!("typetag_{pos}_first"), |b| {
            b.iter(|| de_adj_typetag(black_box(json)))
        });
    }
    g.finish();

    let mut g = group(c, "de_external_small");
    g.bench_function("plain", |b| b.iter(|| de_small_plain(black_box(&s.plain))));
    g.bench_function("plain_boxed", |b| {
        b.iter(|| de_small_plain_boxed(black_box(&s.plain)))
    });
    let ext = &r.small_ext_text;
    g.bench_function("ours", |b| b.iter(|| de_small_ext(black_box(ext))));
    g.bench_function("serde", |b| b.iter(|| de_small_ext_serde(black_box(ext))));
    g.bench_function("ours_dyn", |b| {
        b.iter(|| de_small_ext_trait(black_box(ext)))
    });
    g.bench_function("profile", |b| {
        b.iter(|| de_small_ext_profile(&r.small_ext_profile, black_box(ext)))
    });
    g.bench_function("typetag", |b| {
        b.iter(|| de_small_ext_typetag(black_box(ext)))
    });
    g.finish();

    let mut g = group(c, "de_adjacent_small");
    g.bench_function("plain", |b| b.iter(|| de_small_plain(black_box(&s.plain))));
    g.bench_function("plain_boxed", |b| {
        b.iter(|| de_small_plain_boxed(black_box(&s.plain)))
    });
    for (pos, json) in [("tag", &r.small_adj_first), ("content", &r.small_adj_last)] {
        g.bench_function(format!("ours_{pos}_first"), |b| {
            b.iter(|| de_small_adj(black_box(json)))
        });
        g.bench_function(format!("serde_{pos}_first"), |b| {
            b.iter(|| de_small_adj_serde(black_box(json)))
        });
        g.bench_function(format!("ours_dyn_{pos}_first"), |b| {
            b.iter(|| de_small_adj_trait(black_box(json)))
        });
        g.bench_function(format!("profile_{pos}_first"), |b| {
            b.iter(|| de_small_adj_profile(&r.small_adj_profile, black_box(json)))
        });
        g.bench_function(format!("typetag_{pos}_first"), |b| {
            b.iter(|| de_small_adj_typetag(black_box(json)))
        });
    }
    g.finish();

    let mut buf = Vec::with_capacity(4096);
    for (name, plain, values) in [
        (
            "ser_repr_single",
            &i.click as &dyn erased_serde_json::Write,
            [
                &r.ext as &dyn erased_serde_json::Write,
                &r.ext_serde,
                &r.ext_boxed,
                &r.ext_tt,
                &r.adj,
                &r.adj_serde,
                &r.adj_boxed,
                &r.adj_tt,
            ],
        ),
        (
            "ser_repr_small",
            &s.dog,
            [
                &r.small_ext,
                &r.small_ext_serde,
                &r.small_ext_boxed,
                &r.small_ext_tt,
                &r.small_adj,
                &r.small_adj_serde,
                &r.small_adj_boxed,
                &r.small_adj_tt,
            ],
        ),
    ] {
        let mut g = group(c, name);
        g.bench_function("plain", |b| b.iter(|| black_box(plain).write(&mut buf)));
        for (bench, value) in REPR_SER[1..].iter().zip(values) {
            g.bench_function(*bench, |b| b.iter(|| black_box(value).write(&mut buf)));
        }
        g.finish();
    }
}

/// `ser_into` through a trait object, so one loop writes values of
/// different types (the same dynamic call for every entry of a group).
mod erased_serde_json {
    pub trait Write {
        fn write(&self, buf: &mut Vec<u8>);
    }

    impl<T: serde::Serialize> Write for T {
        fn write(&self, buf: &mut Vec<u8>) {
            super::ser_into(buf, self)
        }
    }
}

fn modes(c: &mut Criterion, i: &Inputs) {
    let mut g = group(c, "de_modes_single");
    g.bench_function("plain", |b| b.iter(|| de_plain(black_box(&i.single_plain))));
    g.bench_function("presence", |b| {
        b.iter(|| de_presence(black_box(&i.single_plain)))
    });
    g.bench_function("nested_tag_first", |b| {
        b.iter(|| de_nested(black_box(&i.single_first)))
    });
    g.bench_function("nested_tag_last", |b| {
        b.iter(|| de_nested(black_box(&i.single_last)))
    });
    g.finish();

    let mut g = group(c, "de_modes_vec1000");
    g.bench_function("plain", |b| {
        b.iter(|| de_vec_plain(black_box(&i.vec_plain), &i.kinds))
    });
    g.bench_function("presence", |b| {
        b.iter(|| de_vec_presence(black_box(&i.vec_plain)))
    });
    g.bench_function("nested_tag_first", |b| {
        b.iter(|| de_vec_nested(black_box(&i.vec_first)))
    });
    g.bench_function("nested_tag_last", |b| {
        b.iter(|| de_vec_nested(black_box(&i.vec_last)))
    });
    g.finish();
}

fn unknown(c: &mut Criterion, i: &Inputs) {
    let x = &i.extra;
    let mut g = group(c, "de_unknown_single");
    g.bench_function("value", |b| {
        b.iter(|| de_value(black_box(&x.single_unknown_first)))
    });
    g.bench_function("ours_unknown_tag", |b| {
        b.iter(|| de_open(black_box(&x.single_unknown_first)))
    });
    g.finish();

    let mut g = group(c, "de_unknown_vec1000");
    g.bench_function("value", |b| {
        b.iter(|| de_vec_value(black_box(&x.vec_unknown_first)))
    });
    g.bench_function("ours_unknown_tag", |b| {
        b.iter(|| de_vec_open(black_box(&x.vec_unknown_first)))
    });
    g.finish();
}

fn depth(c: &mut Criterion, i: &Inputs) {
    let mut g = group(c, DEPTH_GROUP);
    // typetag's deepest chain takes milliseconds: same iterations per sample.
    g.sampling_mode(SamplingMode::Flat);
    for (k, d) in DEPTHS.into_iter().enumerate() {
        let (plain, last) = (&i.chains.plain[k], &i.chains.tag_last[k]);
        g.bench_with_input(BenchmarkId::new("plain", d), plain, |b, s| {
            b.iter(|| deep_plain(black_box(s)))
        });
        g.bench_with_input(BenchmarkId::new("ours", d), last, |b, s| {
            b.iter(|| deep_ours(black_box(s)))
        });
        g.bench_with_input(BenchmarkId::new("ours_dyn", d), last, |b, s| {
            b.iter(|| deep_ours_trait(black_box(s)))
        });
        g.bench_with_input(BenchmarkId::new("serde", d), last, |b, s| {
            b.iter(|| deep_serde(black_box(s)))
        });
        g.bench_with_input(BenchmarkId::new("typetag", d), last, |b, s| {
            b.iter(|| deep_typetag(black_box(s)))
        });
    }
    g.finish();
}

fn canada(c: &mut Criterion) {
    let Some(text) = canada::text() else {
        println!("{CANADA_GROUP}: canada.json not found; group skipped");
        return;
    };
    // Milliseconds per read: criterion's default times (or the command
    // line's), ten samples.
    let mut g = c.benchmark_group(CANADA_GROUP);
    g.sample_size(10);
    g.bench_function("plain", |b| b.iter(|| canada::de_plain(black_box(text))));
    g.bench_function("serde", |b| b.iter(|| canada::de_serde(black_box(text))));
    g.bench_function("ours", |b| b.iter(|| canada::de_ours(black_box(text))));
    g.finish();
}

fn main() {
    let started = SystemTime::now();
    // Deep tag-last chains recurse through every level: one big-stack thread.
    run_on_big_stack(move || {
        let inputs = Inputs::new();
        inputs.check();

        let mut c = Criterion::default().configure_from_args();
        de_single(&mut c, &inputs);
        de_vec(&mut c, &inputs);
        ser_single(&mut c, &inputs);
        ser_vec(&mut c, &inputs);
        de_dyn(&mut c, &inputs);
        ser_dyn(&mut c, &inputs);
        small(&mut c, &inputs);
        representations(&mut c, &inputs);
        modes(&mut c, &inputs);
        unknown(&mut c, &inputs);
        depth(&mut c, &inputs);
        if let Some(text) = canada::text() {
            canada::check(text);
        }
        canada(&mut c);
        c.final_summary();
    });

    print_ratios(started);
    print_depth(started);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("\nload average at the end: {}", load.trim());
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
        "\nRatios to each group's baseline (this run; mean and median of criterion's estimates)"
    );
    println!(
        "{:<20} {:<20} {:>12} {:>12} {:>8} {:>8}",
        "group", "bench", "mean", "median", "x mean", "x median"
    );
    for (group, baseline, benches) in GROUPS {
        let Some((base_mean, base_median)) = estimate(&dir, group, baseline, since) else {
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

/// Per level: time / depth, ratio to the plain chain of the same depth, and
/// growth from the shallowest to the deepest chain (linear: 4x for 50 -> 200).
fn print_depth(since: SystemTime) {
    let Some(dir) = criterion_dir() else {
        return;
    };
    println!("\nRecursive chains, tag last at every level (median times of this run)");
    println!(
        "{:<10} {:>6} {:>12} {:>12} {:>9} {:>14}",
        "impl", "depth", "median", "per level", "x plain", "x depth 50"
    );
    for imp in DEPTH_IMPLS {
        let first = estimate(&dir, DEPTH_GROUP, &format!("{imp}/{}", DEPTHS[0]), since);
        for d in DEPTHS {
            let Some((_, median)) = estimate(&dir, DEPTH_GROUP, &format!("{imp}/{d}"), since)
            else {
                continue;
            };
            let plain = estimate(&dir, DEPTH_GROUP, &format!("plain/{d}"), since);
            println!(
                "{:<10} {:>6} {:>12} {:>12} {:>9} {:>14}",
                imp,
                d,
                fmt_ns(median),
                fmt_ns(median / d as f64),
                plain.map_or("-".into(), |(_, p)| format!("{:.2}", median / p)),
                first.map_or("-".into(), |(_, f)| format!("{:.2}", median / f)),
            );
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

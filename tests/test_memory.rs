//! Memory: with the tag first nothing of the rest is buffered; with the tag
//! later the buffered prefix stays within 8x its input size. Measured with a
//! counting allocator (this test binary's global allocator).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

use json_subtypes::json_subtypes;
use rstest::rstest;
use serde::{Deserialize, Serialize};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// The measurements share the counters: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

thread_local! {
    /// Only the measuring thread counts, not the test harness around it.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}

fn counting() -> bool {
    MEASURING.try_with(Cell::get).unwrap_or(false)
}

fn grew(by: usize) {
    if !counting() {
        return;
    }
    let live = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(live, Relaxed);
}

fn shrank(by: usize) {
    if counting() {
        LIVE.fetch_sub(by, Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` unchanged; we only count.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if counting() {
            COUNT.fetch_add(1, Relaxed);
        }
        grew(layout.size());
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if counting() {
            COUNT.fetch_add(1, Relaxed);
        }
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            shrank(layout.size() - new_size);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// (allocations, peak bytes above the start) while `f` runs.
fn measure<R>(f: impl FnOnce() -> R) -> (usize, usize, R) {
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    COUNT.store(0, Relaxed);
    MEASURING.with(|m| m.set(true));
    let out = f();
    MEASURING.with(|m| m.set(false));
    (COUNT.load(Relaxed), PEAK.load(Relaxed), out)
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Small {
    n: u32,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Tagged {
    Small(Small),
}

/// serde's internally tagged twin, for the comparison in the README.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "type")]
enum SerdeTagged {
    Small(Small),
}

#[test]
// With serde_json's `arbitrary_precision`, every number read (ignored ones
// included, which we parse) is handed over as an allocated string.
#[cfg_attr(feature = "arbitrary_precision", ignore = "numbers allocate")]
#[cfg_attr(
    miri,
    ignore = "a 1 MB field: too slow under Miri (a heap measurement, not UB)"
)]
fn tag_first_buffers_nothing_of_the_rest() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let big = "x".repeat(1 << 20);
    let body = format!(r#""n":1,"junk":"{big}","more":[{{"a":[1,2,3]}}]"#);
    let plain = format!("{{{body}}}");
    let tagged = format!(r#"{{"type":"Small",{body}}}"#);
    let (plain_allocs, plain_peak, _) = measure(|| serde_json::from_str::<Small>(&plain).unwrap());
    let (allocs, peak, value) = measure(|| serde_json::from_str::<Tagged>(&tagged).unwrap());
    assert_eq!(value, Tagged::Small(Small { n: 1 }));
    // serde_json itself may allocate a little to skip nested values; we add
    // nothing, however large the rest is.
    assert!(
        allocs <= plain_allocs && peak <= plain_peak,
        "a 1 MB unknown field after the tag: {allocs} allocations, peak {peak} bytes \
         (plain struct: {plain_allocs}, {plain_peak})"
    );
    assert!(peak < 1024, "{peak}");
}

#[test]
fn tag_first_allocates_what_the_plain_struct_does() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    #[derive(Serialize, Deserialize)]
    struct Owned {
        #[allow(dead_code)]
        s: String,
    }
    #[json_subtypes(tag = "type")]
    enum OwnedTagged {
        #[allow(dead_code)]
        Owned(Owned),
    }
    let (plain, _, _) = measure(|| serde_json::from_str::<Owned>(r#"{"s":"abc"}"#).unwrap());
    let (ours, _, _) =
        measure(|| serde_json::from_str::<OwnedTagged>(r#"{"type":"Owned","s":"abc"}"#).unwrap());
    assert_eq!(ours, plain);
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum WithFallback {
    Small(Small),
    #[json_subtypes(fallback)]
    Other(json_subtypes::Unknown),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Parent {
    #[json_subtypes(nested)]
    Child(Tagged),
    Other(Small),
}

/// A fallback or a nested child costs nothing when the tag is known and
/// first: the tag is recorded only if it must be replayed.
#[test]
fn known_tags_first_cost_no_buffer_with_a_fallback_or_children() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // The first use of an enum with children checks its tag table once.
    serde_json::from_str::<Parent>(r#"{"type":"Other","n":1}"#).unwrap();
    let (plain, _, _) = measure(|| serde_json::from_str::<Small>(r#"{"n":1}"#).unwrap());
    let (fallback, _, v) =
        measure(|| serde_json::from_str::<WithFallback>(r#"{"type":"Small","n":1}"#).unwrap());
    assert_eq!(v, WithFallback::Small(Small { n: 1 }));
    let (parent, _, v) =
        measure(|| serde_json::from_str::<Parent>(r#"{"type":"Other","n":1}"#).unwrap());
    assert_eq!(v, Parent::Other(Small { n: 1 }));
    // A child's tag is handed on as read, not buffered.
    let (child, _, v) =
        measure(|| serde_json::from_str::<Parent>(r#"{"type":"Small","n":1}"#).unwrap());
    assert_eq!(v, Parent::Child(Tagged::Small(Small { n: 1 })));
    assert_eq!((fallback, parent, child), (plain, plain, plain));
}

fn prefix(shape: &str, n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| match shape {
            "zeros" => "0".to_owned(),
            "nested" => "[0]".to_owned(),
            "objects" => r#"{"":0}"#.to_owned(),
            "strings" => format!(r#""{}""#, "s".repeat(1000 + i % 7)),
            "escaped" => format!(r#""{}\n""#, "e".repeat(1000 + i % 7)),
            other => unreachable!("{other}"),
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The README's first row: serde's internally tagged enum buffers the whole
/// object even when the tag comes first (here an array of 100,000 zeros,
/// which it then drops; borrowed strings it would only point at).
#[test]
#[cfg_attr(
    miri,
    ignore = "a 200 KB field: too slow under Miri (a heap measurement, not UB)"
)]
fn serde_tag_buffers_the_whole_object() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let junk = format!("[{}0]", "0,".repeat(99_999));
    let tagged = format!(r#"{{"type":"Small","n":1,"junk":{junk}}}"#);
    let (_, serde_peak, value) = measure(|| serde_json::from_str::<SerdeTagged>(&tagged).unwrap());
    assert_eq!(value, SerdeTagged::Small(Small { n: 1 }));
    assert!(serde_peak > junk.len(), "{serde_peak}");
    let (_, peak, value) = measure(|| serde_json::from_str::<Tagged>(&tagged).unwrap());
    assert_eq!(value, Tagged::Small(Small { n: 1 }));
    assert!(peak < 1024, "{peak}");
}

#[rstest]
#[cfg_attr(
    miri,
    ignore = "up to 100,000 elements: too slow under Miri (a heap measurement, not UB)"
)]
fn tag_last_buffers_at_most_8x_its_input(
    #[values("zeros", "nested", "objects", "strings", "escaped")] shape: &str,
    #[values(1_000, 100_000)] n: usize,
) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let value = prefix(shape, n);
    let text = format!(r#"{{"junk":{value},"n":1,"type":"Small"}}"#);
    let (_, peak, out) = measure(|| serde_json::from_str::<Tagged>(&text).unwrap());
    assert_eq!(out, Tagged::Small(Small { n: 1 }));
    let ratio = peak as f64 / value.len() as f64;
    assert!(
        ratio <= 8.0,
        "{shape} x{n}: peak {peak} bytes for {} bytes of input ({ratio:.2}x)",
        value.len()
    );
}

/// With `arbitrary_precision`, serde_json hands an integer tag over as a
/// one-entry map holding its digits (which serde_json allocates); reading
/// the tag adds nothing to that.
#[cfg(feature = "arbitrary_precision")]
#[test]
fn integer_tags_under_arbitrary_precision_allocate_nothing() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Text<'a> {
        s: &'a str,
    }
    #[json_subtypes(tag = "type")]
    #[derive(Debug, PartialEq)]
    enum IntTagged<'a> {
        #[json_subtypes(name = 3)]
        Text(#[serde(borrow)] Text<'a>),
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (plain, _, _) = measure(|| serde_json::from_str::<Text>(r#"{"s":"a"}"#).unwrap());
    let (ours, _, v) =
        measure(|| serde_json::from_str::<IntTagged>(r#"{"type":3,"s":"a"}"#).unwrap());
    assert_eq!(v, IntTagged::Text(Text { s: "a" }));
    // The one allocation is the `String` serde_json builds for the digits.
    assert_eq!(ours, plain + 1);
}

/// A thread that buffers keeps one emptied block for its next object: the
/// second tag-last read on a thread allocates nothing (`Small` holds no heap
/// data), and after a read that buffered a megabyte at most 4 KiB stay.
#[test]
#[cfg_attr(
    miri,
    ignore = "a 1 MB prefix: too slow under Miri (a heap measurement, not UB)"
)]
fn a_thread_keeps_one_block_of_at_most_4_kib_for_its_next_buffer() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // With `arbitrary_precision`, serde_json hands the number over as an
    // allocated string, once per read.
    let digits = usize::from(cfg!(feature = "arbitrary_precision"));
    std::thread::spawn(move || {
        let text = r#"{"n":1,"type":"Small"}"#;
        let (first, _, _) = measure(|| serde_json::from_str::<Tagged>(text).unwrap());
        assert_eq!(
            first,
            1 + digits,
            "the first buffer on a thread is allocated"
        );
        let (second, _, value) = measure(|| serde_json::from_str::<Tagged>(text).unwrap());
        assert_eq!(value, Tagged::Small(Small { n: 1 }));
        assert_eq!(second, digits, "the second reuses the first one's block");

        let junk = format!("[{}0]", "0,".repeat(1 << 19));
        let big = format!(r#"{{"junk":{junk},"n":1,"type":"Small"}}"#);
        let (_, peak, value) = measure(|| serde_json::from_str::<Tagged>(&big).unwrap());
        assert_eq!(value, Tagged::Small(Small { n: 1 }));
        assert!(peak > 1 << 20, "{peak}");
        // What the read still holds once it returned, counted from before it
        // (less than zero when it freed the block the first reads left).
        let kept = LIVE.load(Relaxed) as isize;
        assert!(kept <= 4096, "{kept} bytes kept");
    })
    .join()
    .unwrap();
}

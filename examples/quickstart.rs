//! An event log whose entries are picked by their `"type"` field.
//!
//! Run with `cargo run --release --example quickstart`.

use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

/// A page view; `path` borrows straight from the input text.
#[derive(Debug, Serialize, Deserialize)]
struct PageView<'a> {
    path: &'a str,
    ms: u32,
}

#[derive(Debug, Serialize, Deserialize)]
struct Purchase {
    sku: String,
    cents: u64,
    #[serde(default)]
    coupon: Option<String>,
}

#[json_subtypes(tag = "type", rename_all = "snake_case")]
#[derive(Debug)]
enum Event<'a> {
    #[json_subtypes(alias = "view")]
    PageView(#[serde(borrow)] PageView<'a>),
    Purchase(Purchase),
    /// A struct variant: serde field attributes work here too.
    Error {
        code: u16,
        #[serde(default)]
        retryable: bool,
    },
    Logout,
}

#[derive(Debug, Serialize, Deserialize)]
struct Log<'a> {
    service: String,
    #[serde(borrow)]
    events: Vec<Event<'a>>,
}

const INPUT: &str = r#"{
  "service": "shop",
  "events": [
    {"type": "page_view", "path": "/", "ms": 31},
    {"path": "/cart", "ms": 12, "type": "view"},
    {"sku": "A-113", "type": "purchase", "cents": 1999},
    {"type": "error", "code": 503, "retryable": true},
    {"type": "logout"}
  ]
}"#;

fn main() -> Result<(), serde_json::Error> {
    let log: Log = serde_json::from_str(INPUT)?;
    println!("read {} events from {}:", log.events.len(), log.service);
    for event in &log.events {
        match event {
            Event::PageView(view) => println!("  view     {} in {} ms", view.path, view.ms),
            Event::Purchase(p) => println!("  purchase {} for {} cents", p.sku, p.cents),
            Event::Error { code, retryable } => {
                println!("  error    {code} (retryable: {retryable})")
            }
            Event::Logout => println!("  logout"),
        }
    }

    println!("written back, each tag first:");
    println!("{}", serde_json::to_string_pretty(&log)?);

    match serde_json::from_str::<Event>(r#"{"type": "refund", "cents": 5}"#) {
        Ok(event) => println!("unexpected: {event:?}"),
        Err(e) => println!("an unknown tag is a clear error: {e}"),
    }
    Ok(())
}

//! Plugins as trait objects: a text pipeline configured by a list of
//! `Box<dyn Plugin>`, each picked by its `"plugin"` field and registered by
//! an attribute on its impl, checked with `json_subtypes::verify_registry`. Then
//! "API v2" of the same config, built at run time as a `Profile`: the tag is
//! called `"kind"` and one more plugin is known, without touching the v1
//! registry; a v1 config is migrated to v2 on the way.
//!
//! Run with `cargo run --example plugins`.

use json_subtypes::{json_subtypes, Profile, Unknown};
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "plugin")]
trait Plugin: std::fmt::Debug {
    fn apply(&self, text: String) -> String;
}

#[derive(Debug, Serialize, Deserialize)]
struct Trim {}

#[json_subtypes(name = "trim")]
impl Plugin for Trim {
    fn apply(&self, text: String) -> String {
        text.trim().to_string()
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Replace {
    from: String,
    to: String,
}

#[json_subtypes(name = "replace")]
impl Plugin for Replace {
    fn apply(&self, text: String) -> String {
        text.replace(&self.from, &self.to)
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Truncate {
    max_chars: usize,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    ellipsis: String,
}

#[json_subtypes(name = "truncate")]
impl Plugin for Truncate {
    fn apply(&self, text: String) -> String {
        match text.char_indices().nth(self.max_chars) {
            Some((end, _)) => format!("{}{}", &text[..end], self.ellipsis),
            None => text,
        }
    }
}

/// A plugin this build does not have: kept in the config, skipped when run.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct Missing(Unknown);

#[json_subtypes(fallback)]
impl Plugin for Missing {
    fn apply(&self, text: String) -> String {
        let entry = serde_json::to_string(&self.0).unwrap_or_default();
        println!("  (skipped, not installed: {entry})");
        text
    }
}

/// New in v2; only the v2 profile knows it.
#[derive(Debug, Serialize, Deserialize)]
struct Upper {}

impl Plugin for Upper {
    fn apply(&self, text: String) -> String {
        text.to_uppercase()
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Config {
    name: String,
    pipeline: Vec<Box<dyn Plugin>>,
}

impl Config {
    fn run(&self, input: &str) -> String {
        self.pipeline
            .iter()
            .fold(input.to_string(), |text, plugin| plugin.apply(text))
    }
}

const CONFIG_V1: &str = r#"{
  "name": "headline",
  "pipeline": [
    {"plugin": "trim"},
    {"from": "  ", "to": " ", "plugin": "replace"},
    {"plugin": "spellcheck", "language": "en-GB", "strict": true},
    {"plugin": "truncate", "max_chars": 24, "ellipsis": "..."}
  ]
}"#;

const CONFIG_V2: &str = r#"{
  "name": "shouty headline",
  "pipeline": [
    {"kind": "trim"},
    {"kind": "replace", "from": "  ", "to": " "},
    {"kind": "upper"},
    {"kind": "truncate", "max_chars": 24}
  ]
}"#;

const INPUT: &str = "   Serde  learns  subtypes in  one attribute  ";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Every tag names one type: a test suite would assert this too.
    json_subtypes::verify_registry::<dyn Plugin>()?;

    let config: Config = serde_json::from_str(CONFIG_V1)?;
    println!(
        "v1 config {:?}, {} plugins:",
        config.name,
        config.pipeline.len()
    );
    for plugin in &config.pipeline {
        println!("  {plugin:?}");
    }
    let output_v1 = config.run(INPUT);
    println!("{INPUT:?} -> {output_v1:?}");
    assert_eq!(output_v1, "Serde learns subtypes in...");

    // Written back with the registered names; the unknown plugin unchanged.
    let written = serde_json::to_string(&config)?;
    println!("written back ({} bytes): {written}", written.len());
    assert!(written.contains(r#"{"plugin":"replace","from":"  ","to":" "}"#));
    assert!(written.contains(r#"{"plugin":"spellcheck","language":"en-GB","strict":true}"#));
    let again: Config = serde_json::from_str(&written)?;
    assert_eq!(serde_json::to_string(&again)?, written);

    // API v2: the registry's plugins under another tag key, plus `upper`.
    let v2 = Profile::<dyn Plugin>::builder_from_registry()
        .tag("kind")
        .subtype::<Upper>("upper")
        .build()?;
    let shouty: Config = v2.scope(|| serde_json::from_str(CONFIG_V2))?;
    let output = shouty.run(INPUT);
    println!("v2 config {:?}: {INPUT:?} -> {output:?}", shouty.name);
    assert_eq!(output, "SERDE LEARNS SUBTYPES IN");
    let written = v2.scope(|| serde_json::to_string(&shouty))?;
    let v2_compact = serde_json::to_string(&serde_json::from_str::<serde_json::Value>(CONFIG_V2)?)?;
    assert_eq!(written, v2_compact);

    // Outside the scope, v1 rules again: without a `plugin` key every entry
    // is a plugin v1 does not have, kept and written back unchanged.
    let as_v1: Config = serde_json::from_str(CONFIG_V2)?;
    assert_eq!(serde_json::to_string(&as_v1)?, written);
    println!(
        "v1 reading v2 keeps {} unknown plugins unchanged",
        as_v1.pipeline.len()
    );
    let upper = v2.from_str(r#"{"kind": "upper"}"#)?;
    match serde_json::to_string(&upper) {
        Ok(text) => return Err(format!("v1 wrote the v2-only plugin: {text}").into()),
        Err(err) => println!("v1 writing `upper`: {err}"),
    }

    // Migration: read with v1, write with v2. The plugin neither version
    // knows is written back as read, its v1 key included.
    let migrated = v2.scope(|| serde_json::to_string(&config))?;
    println!("v1 config migrated to v2: {migrated}");
    assert!(migrated.contains(r#"{"kind":"replace","from":"  ","to":" "}"#));
    assert!(migrated.contains(r#"{"plugin":"spellcheck","language":"en-GB","strict":true}"#));
    let reread: Config = v2.scope(|| serde_json::from_str(&migrated))?;
    assert_eq!(reread.run(INPUT), output_v1);
    Ok(())
}

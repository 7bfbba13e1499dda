//! canada.json, serde_json's own benchmark file (GeoJSON: one Feature whose
//! geometry is a Polygon of 480 rings, 55,563 coordinate pairs), read with
//! its geometry as an enum three ways: plain derived structs (the limit: the
//! same data, the `"type"` member skipped), serde's `#[serde(tag = "type")]`
//! enum and ours. Everything around the geometry is the same plain structs.
//!
//! The file is not in this repository: it is looked for at `$CANADA_JSON`,
//! else at `../shared/corpora/json-benchmark/canada.json` from the crate
//! root. Without it the benches say so and leave these paths out.

use std::path::PathBuf;
use std::sync::OnceLock;

use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

/// `[longitude, latitude]`.
pub type Position = [f64; 2];

/// The members of the file around the geometry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeatureCollection<G> {
    pub features: Vec<Feature<G>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feature<G> {
    pub properties: Properties,
    pub geometry: G,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Properties {
    pub name: String,
}

/// The limit: the geometry as a plain struct (canada.json holds a Polygon).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlainPolygon {
    pub coordinates: Vec<Vec<Position>>,
}

/// serde's internally tagged enum: buffers the geometry before reading it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum SerdeGeometry {
    Polygon {
        coordinates: Vec<Vec<Position>>,
    },
    MultiPolygon {
        coordinates: Vec<Vec<Vec<Position>>>,
    },
    LineString {
        coordinates: Vec<Position>,
    },
    Point {
        coordinates: Position,
    },
}

/// Ours, the same variants.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    Polygon {
        coordinates: Vec<Vec<Position>>,
    },
    MultiPolygon {
        coordinates: Vec<Vec<Vec<Position>>>,
    },
    LineString {
        coordinates: Vec<Position>,
    },
    Point {
        coordinates: Position,
    },
}

/// Where the file is looked for.
pub fn path() -> PathBuf {
    match std::env::var_os("CANADA_JSON") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpora/json-benchmark/canada.json"),
    }
}

/// The file's text, read once; `None` (and a message, once) when absent.
pub fn text() -> Option<&'static str> {
    static TEXT: OnceLock<Option<String>> = OnceLock::new();
    TEXT.get_or_init(|| match std::fs::read_to_string(path()) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!(
                "canada.json not found at {} ({e}); skipping the canada benches \
                 (set CANADA_JSON to its path)",
                path().display()
            );
            None
        }
    })
    .as_deref()
}

pub fn de_plain(text: &str) -> FeatureCollection<PlainPolygon> {
    serde_json::from_str(text).unwrap()
}

pub fn de_serde(text: &str) -> FeatureCollection<SerdeGeometry> {
    serde_json::from_str(text).unwrap()
}

pub fn de_ours(text: &str) -> FeatureCollection<Geometry> {
    serde_json::from_str(text).unwrap()
}

/// The three readings agree, and ours writes what serde's writes.
pub fn check(text: &str) {
    let plain = de_plain(text);
    let serde = de_serde(text);
    let ours = de_ours(text);
    assert_eq!(plain.features.len(), 1, "canada.json: one feature");
    for ((p, s), o) in plain
        .features
        .iter()
        .zip(&serde.features)
        .zip(&ours.features)
    {
        let SerdeGeometry::Polygon { coordinates: sc } = &s.geometry else {
            panic!("canada.json: serde read no Polygon");
        };
        let Geometry::Polygon { coordinates: oc } = &o.geometry else {
            panic!("canada.json: ours read no Polygon");
        };
        assert_eq!(
            &p.geometry.coordinates, sc,
            "canada.json: serde's coordinates"
        );
        assert_eq!(&p.geometry.coordinates, oc, "canada.json: our coordinates");
        assert_eq!(p.properties, o.properties);
    }
    assert_eq!(
        serde_json::to_string(&ours).unwrap(),
        serde_json::to_string(&serde).unwrap(),
        "canada.json: ours writes what serde writes"
    );
}

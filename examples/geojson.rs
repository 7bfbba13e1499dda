//! GeoJSON (RFC 7946): geometries, features and feature collections, all
//! picked by their `"type"` member, one level inside another (a Feature has
//! `"type":"Feature"` and a geometry with its own `"type"`), a recursive
//! GeometryCollection, and an unknown geometry kept losslessly by a fallback.
//!
//! Run with `cargo run --example geojson`.

use json_subtypes::{json_subtypes, Unknown};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `[longitude, latitude]`, optionally followed by an altitude.
type Position = Vec<f64>;

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Geometry {
    Point {
        coordinates: Position,
    },
    MultiPoint {
        coordinates: Vec<Position>,
    },
    LineString {
        coordinates: Vec<Position>,
    },
    MultiLineString {
        coordinates: Vec<Vec<Position>>,
    },
    Polygon {
        coordinates: Vec<Vec<Position>>,
    },
    MultiPolygon {
        coordinates: Vec<Vec<Vec<Position>>>,
    },
    /// Named like this in Rust, as GeoJSON names it in the text.
    #[json_subtypes(name = "GeometryCollection")]
    Collection {
        geometries: Vec<Geometry>,
    },
    /// A geometry type from an extension or a later spec, kept as read.
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// The members of a Feature besides its `"type"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct FeatureBody {
    geometry: Option<Geometry>,
    properties: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
}

/// `{"type":"Feature", ...}`: one subtype, so the tag is checked on read
/// (a FeatureCollection holds nothing else) and written back.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Feature {
    Feature(FeatureBody),
}

/// Any GeoJSON text: a Feature, a FeatureCollection or a bare geometry. The
/// `nested` levels share the key, so their tags are accepted here too.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum GeoJson {
    #[json_subtypes(nested)]
    Feature(Feature),
    FeatureCollection {
        features: Vec<Feature>,
    },
    #[json_subtypes(nested)]
    Geometry(Geometry),
}

/// The example document of RFC 7946, section 1.5.
const RFC_EXAMPLE: &str = r#"{
  "type": "FeatureCollection",
  "features": [{
      "type": "Feature",
      "geometry": {"type": "Point", "coordinates": [102.0, 0.5]},
      "properties": {"prop0": "value0"}
    }, {
      "type": "Feature",
      "geometry": {
        "type": "LineString",
        "coordinates": [[102.0, 0.0], [103.0, 1.0], [104.0, 0.0], [105.0, 1.0]]
      },
      "properties": {"prop0": "value0", "prop1": 0.0}
    }, {
      "type": "Feature",
      "geometry": {
        "type": "Polygon",
        "coordinates": [[[100.0, 0.0], [101.0, 0.0], [101.0, 1.0], [100.0, 1.0], [100.0, 0.0]]]
      },
      "properties": {"prop0": "value0", "prop1": {"this": "that"}}
  }]
}"#;

/// The other geometry types, a nested collection, and a "Circle" from an
/// extension this program does not know, with the tag after its members.
const COLLECTION: &str = r#"{
  "type": "GeometryCollection",
  "geometries": [
    {"type": "MultiPoint", "coordinates": [[100.0, 0.0], [101.0, 1.0]]},
    {"type": "MultiLineString", "coordinates": [[[100.0, 0.0], [101.0, 1.0]], [[102.0, 2.0], [103.0, 3.0]]]},
    {"type": "GeometryCollection", "geometries": [
      {"type": "MultiPolygon", "coordinates": [[[[102.0, 2.0], [103.0, 2.0], [103.0, 3.0], [102.0, 2.0]]]]},
      {"center": [8.55, 47.37], "radius": 250, "units": "m", "type": "Circle"}
    ]}
  ]
}"#;

/// A one-line summary, recursing into collections.
fn summary(geometry: &Geometry) -> String {
    match geometry {
        Geometry::Point { coordinates } => format!("Point {coordinates:?}"),
        Geometry::MultiPoint { coordinates } => format!("MultiPoint of {}", coordinates.len()),
        Geometry::LineString { coordinates } => format!("LineString of {}", coordinates.len()),
        Geometry::MultiLineString { coordinates } => {
            format!("MultiLineString of {}", coordinates.len())
        }
        Geometry::Polygon { coordinates } => format!("Polygon of {} ring(s)", coordinates.len()),
        Geometry::MultiPolygon { coordinates } => format!("MultiPolygon of {}", coordinates.len()),
        Geometry::Collection { geometries } => {
            let inner: Vec<_> = geometries.iter().map(summary).collect();
            format!("GeometryCollection [{}]", inner.join(", "))
        }
        Geometry::Other(unknown) => {
            let tag = unknown.tag::<String>().and_then(Result::ok);
            let keys: Vec<_> = unknown.keys().collect();
            format!("unknown {:?} {keys:?}", tag.unwrap_or_default())
        }
    }
}

/// The compact form of `text`, members in their original order.
fn compact(text: &str) -> Result<String, serde_json::Error> {
    serde_json::to_string(&serde_json::from_str::<Value>(text)?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let doc: GeoJson = serde_json::from_str(RFC_EXAMPLE)?;
    let GeoJson::FeatureCollection { features } = &doc else {
        return Err(format!("expected a FeatureCollection, read {doc:?}").into());
    };
    println!("RFC 7946 example, a FeatureCollection:");
    let mut geometries = Vec::new();
    for Feature::Feature(feature) in features {
        let names: Vec<_> = feature.properties.iter().flat_map(|p| p.keys()).collect();
        let geometry = feature.geometry.as_ref().map_or("none".into(), summary);
        println!("  Feature, properties {names:?}, geometry {geometry}");
        geometries.push(geometry);
    }
    assert_eq!(
        geometries,
        [
            "Point [102.0, 0.5]",
            "LineString of 4",
            "Polygon of 1 ring(s)"
        ]
    );

    // Writing puts every "type" back, outer and inner: the same document.
    let written = serde_json::to_string(&doc)?;
    assert_eq!(written, compact(RFC_EXAMPLE)?);
    assert!(written.starts_with(
        r#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","#
    ));
    println!("written back unchanged ({} bytes)", written.len());

    // A bare geometry: its tag is one the nested level owns.
    let geo: GeoJson = serde_json::from_str(COLLECTION)?;
    let GeoJson::Geometry(geometry) = &geo else {
        return Err(format!("expected a geometry, read {geo:?}").into());
    };
    println!("a bare geometry: {}", summary(geometry));
    assert_eq!(
        summary(geometry),
        r#"GeometryCollection [MultiPoint of 2, MultiLineString of 2, GeometryCollection [MultiPolygon of 1, unknown "Circle" ["center", "radius", "units", "type"]]]"#
    );

    // The unknown Circle is written back exactly as read, tag last included.
    let written = serde_json::to_string(&geo)?;
    assert_eq!(written, compact(COLLECTION)?);
    assert!(written.contains(r#"{"center":[8.55,47.37],"radius":250,"units":"m","type":"Circle"}"#));
    println!("written back unchanged ({} bytes)", written.len());

    // Not GeoJSON at all (a TopoJSON text): a clear error.
    let err = match serde_json::from_str::<GeoJson>(r#"{"type": "Topology", "arcs": []}"#) {
        Ok(doc) => return Err(format!("a Topology read as {doc:?}").into()),
        Err(err) => err,
    };
    println!("not GeoJSON: {err}");
    assert!(err
        .to_string()
        .starts_with(r#"unknown subtype tag "Topology", expected one of"#));

    // A geometry built in code gets its tag when written.
    let point = Geometry::Point {
        coordinates: vec![-0.1276, 51.5072],
    };
    assert_eq!(
        serde_json::to_string(&point)?,
        r#"{"type":"Point","coordinates":[-0.1276,51.5072]}"#
    );
    Ok(())
}
